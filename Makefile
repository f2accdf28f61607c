# OpenBench builds engines with `make -j EXE=<path>`; Rust engines emit the linked binary there.
EXE ?= cutoff

.PHONY: all ci clean

all:
	cargo rustc --release --bin cutoff -- --emit link=$(EXE)

# What CI runs on a clean clone: fmt, clippy, docs with warnings denied, the test suite.
ci:
	bash .ci/run

clean:
	cargo clean
	rm -f $(EXE)
