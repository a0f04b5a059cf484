"""bikeco hardware flow: the IP core files (ip/*/*.core) read as the one
source of sources, dependencies and presets; Verilator lint and simulation
against libbike; Yosys synthesis for xc7; the results records and table.

Run as `python -m hwflow <command>` from hw/ (hw/Makefile does)."""
