"""Just enough of the ONNX file format to read a network's graph and weights and to write new weights and
metadata back, without the ``onnx`` package (the Pi has only ``cv2.dnn``, which runs a network but gives
neither its graph nor its metadata).

An ONNX file is a protobuf ``ModelProto``. Only the fields used here are read (the graph's nodes with
their attributes, its initializers, the model's ``metadata_props``); every other field is skipped by its
own length, so a file of any content costs one pass over its fields, and anything malformed raises
``ValueError`` saying where. Weights are written back in place, byte for byte over the ``raw_data`` they
replace (same shape, same size), so the rest of the file is kept exactly as the exporter wrote it.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

#: ``TensorProto.DataType`` codes read here
FLOAT: Final = 1
INT64: Final = 7
_DTYPES: Final[dict[int, tuple[str, type]]] = {FLOAT: ("<f4", np.float32), INT64: ("<i8", np.int64)}
#: the deepest nesting read (model > graph > node > attribute > tensor)
_MAX_DEPTH: Final = 6


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise ValueError(f"a truncated varint at byte {at}")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        shift += 7
        if byte < 0x80:
            return value, at


def fields(data: bytes, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int, int, int]]:
    """The fields of the protobuf message in ``data[start:end]``: (field number, wire type, start, end) of
    each field's payload; a varint's (wire type 0) span is its encoded bytes."""
    for number, kind, _, a, b in _tagged(data, start, len(data) if end is None else end):
        yield number, kind, a, b


def _tagged(data: bytes, start: int, end: int) -> Iterator[tuple[int, int, int, int, int]]:
    """``fields``, each with where its tag starts first."""
    at = start
    while at < end:
        tag_at = at
        tag, at = _varint(data, at)
        kind = tag & 7
        if kind == 0:
            _, after = _varint(data, at)
            yield tag >> 3, kind, tag_at, at, after
            at = after
            continue
        size = {1: 8, 5: 4}.get(kind)
        if size is None:
            if kind != 2:
                raise ValueError(f"wire type {kind} at byte {at}: not a protobuf this reader knows")
            size, at = _varint(data, at)
        if at + size > end:
            raise ValueError(f"a field at byte {at} runs past its message's end")
        yield tag >> 3, kind, tag_at, at, at + size
        at += size


def _ints(data: bytes, kind: int, start: int, end: int) -> list[int]:
    """A repeated int64 field's values: packed (wire type 2) or one (wire type 0)."""
    if kind == 0:
        return [_signed(_varint(data, start)[0])]
    out, at = [], start
    while at < end:
        v, at = _varint(data, at)
        out.append(_signed(v))
    return out


def _signed(v: int) -> int:
    return v - (1 << 64) if v >= 1 << 63 else v


@dataclass
class Tensor:
    name: str
    dims: tuple[int, ...]
    data_type: int
    raw: tuple[int, int] | None   # the span of its raw_data in the file
    values: list[float] = field(default_factory=list)   # float_data / int64_data when not raw

    def array(self, data: bytes) -> np.ndarray:
        kinds = _DTYPES.get(self.data_type)
        if kinds is None:
            raise ValueError(f"tensor {self.name!r}: data type {self.data_type} is not read here")
        stored, native = kinds
        if self.raw is not None:
            if (self.raw[1] - self.raw[0]) % np.dtype(stored).itemsize:
                raise ValueError(f"tensor {self.name!r}: raw data of {self.raw[1] - self.raw[0]} bytes")
            flat = np.frombuffer(data[self.raw[0]:self.raw[1]], np.dtype(stored))
        else:
            flat = np.array(self.values, np.dtype(stored))
        if flat.size != int(np.prod(self.dims, dtype=np.int64)):
            raise ValueError(f"tensor {self.name!r}: {flat.size} values for dims {self.dims}")
        return flat.reshape(self.dims).astype(native)


@dataclass
class Node:
    op: str
    inputs: list[str]
    outputs: list[str]
    attrs: dict[str, Any]


@dataclass
class Graph:
    nodes: list[Node]
    initializers: dict[str, Tensor]
    inputs: list[str]
    outputs: list[str]


def _tensor(data: bytes, start: int, end: int) -> Tensor:
    t = Tensor("", (), 0, None)
    dims: list[int] = []
    for number, kind, a, b in fields(data, start, end):
        if number == 1:
            dims += _ints(data, kind, a, b)
        elif number == 2 and kind == 0:
            t.data_type = _varint(data, a)[0]
        elif number == 8 and kind == 2:
            t.name = data[a:b].decode("utf-8")
        elif number == 9 and kind == 2:
            t.raw = (a, b)
        elif number == 4 and kind == 2:
            t.values += list(struct.unpack(f"<{(b - a) // 4}f", data[a:b - (b - a) % 4]))
        elif number == 7:
            t.values += [float(v) for v in _ints(data, kind, a, b)]
    t.dims = tuple(dims)
    return t


def _attribute(data: bytes, start: int, end: int) -> tuple[str, Any]:
    name, value, ints = "", None, []
    for number, kind, a, b in fields(data, start, end):
        if number == 1 and kind == 2:
            name = data[a:b].decode("utf-8")
        elif number == 2 and kind == 5:
            value = struct.unpack("<f", data[a:b])[0]
        elif number == 3 and kind == 0:
            value = _signed(_varint(data, a)[0])
        elif number == 4 and kind == 2:
            value = bytes(data[a:b])
        elif number == 5 and kind == 2:
            value = _tensor(data, a, b)
        elif number == 8:
            ints += _ints(data, kind, a, b)
    return name, (ints if ints else value)


def _node(data: bytes, start: int, end: int) -> Node:
    node = Node("", [], [], {})
    for number, kind, a, b in fields(data, start, end):
        if kind != 2:
            continue
        if number == 1:
            node.inputs.append(data[a:b].decode("utf-8"))
        elif number == 2:
            node.outputs.append(data[a:b].decode("utf-8"))
        elif number == 4:
            node.op = data[a:b].decode("utf-8")
        elif number == 5:
            name, value = _attribute(data, a, b)
            node.attrs[name] = value
    return node


def _value_name(data: bytes, start: int, end: int) -> str:
    for number, kind, a, b in fields(data, start, end):
        if number == 1 and kind == 2:
            return data[a:b].decode("utf-8")
    return ""


def read_graph(data: bytes) -> Graph:
    """The main graph of the ONNX model ``data`` (``ValueError`` when there is none or it is malformed)."""
    try:
        spans = [(a, b) for number, kind, a, b in fields(data) if number == 7 and kind == 2]
        if not spans:
            raise ValueError("no graph in the file: not an ONNX model")
        graph = Graph([], {}, [], [])
        for number, kind, a, b in fields(data, *spans[-1]):
            if kind != 2:
                continue
            if number == 1:
                graph.nodes.append(_node(data, a, b))
            elif number == 5:
                t = _tensor(data, a, b)
                graph.initializers[t.name] = t
            elif number == 11:
                graph.inputs.append(_value_name(data, a, b))
            elif number == 12:
                graph.outputs.append(_value_name(data, a, b))
    except UnicodeDecodeError as exc:
        raise ValueError(f"a name in the graph is not text: {exc}") from None
    return graph


def with_weights(data: bytes, weights: dict[str, np.ndarray]) -> bytes:
    """``data`` with the named initializers' raw data replaced by ``weights`` (each of the initializer's
    shape; stored as float32), every other byte kept."""
    graph = read_graph(data)
    out = bytearray(data)
    for name, array in weights.items():
        t = graph.initializers.get(name)
        if t is None or t.raw is None or t.data_type != FLOAT:
            raise ValueError(f"no float initializer {name!r} stored as raw data in the model")
        if tuple(array.shape) != t.dims:
            raise ValueError(f"{name!r} is {t.dims} in the model, {tuple(array.shape)} given")
        out[t.raw[0]:t.raw[1]] = np.ascontiguousarray(array, "<f4").tobytes()
    return bytes(out)


def _string_field(number: int, text: bytes) -> bytes:
    return _encode_varint(number << 3 | 2) + _encode_varint(len(text)) + text


def _encode_varint(v: int) -> bytes:
    out = bytearray()
    while True:
        byte = v & 0x7F
        v >>= 7
        if v:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def metadata(data: bytes, key: str, most: int = 64_000) -> str | None:
    """The value of the model's metadata entry ``key`` (``ModelProto.metadata_props``, field 14), or None
    (also when the entry is longer than ``most`` bytes)."""
    for number, kind, start, end in fields(data):
        if number != 14 or kind != 2 or end - start > most:
            continue
        entry = {n: bytes(data[a:b]) for n, k, a, b in fields(data, start, end) if k == 2}
        if entry.get(1) == key.encode():
            return entry.get(2, b"").decode("utf-8")
    return None


def with_metadata(data: bytes, key: str, value: str) -> bytes:
    """``data`` with the metadata entry ``key`` set to ``value`` (an entry of that key before is dropped)."""
    kept = bytearray()
    for number, kind, tag_start, start, end in _tagged(data, 0, len(data)):
        if number == 14 and kind == 2:
            parts = {n: bytes(data[a:b]) for n, k, a, b in fields(data, start, end) if k == 2}
            if parts.get(1) == key.encode():
                continue
        kept += data[tag_start:end]
    entry = _string_field(1, key.encode()) + _string_field(2, value.encode())
    return bytes(kept) + _string_field(14, entry)

