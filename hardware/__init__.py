"""The physical parts of the table: camera sources and GPIO buttons and LEDs, each behind a small
protocol with a real implementation. Nothing here imports the rest of the project.
"""
