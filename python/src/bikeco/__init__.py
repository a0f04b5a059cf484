"""bikeco: co-design explorer for BIKE on CPU+FPGA systems."""

__version__ = "0.1.0"
