module bikeco/tests/interop/mlkem

go 1.26
