# OpenBench builds engines with `make -j EXE=<path>`; Rust engines emit the linked binary there.
EXE ?= cutoff

.PHONY: all clean

all:
	cargo rustc --release --bin cutoff -- --emit link=$(EXE)

clean:
	cargo clean
	rm -f $(EXE)
