module bikeco/tests/interop/tls

go 1.26
