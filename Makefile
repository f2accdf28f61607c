# OpenBench builds engines with `make -j EXE=<path>`; the anchors (akimbo, Reckless, Carp) do the
# same, and their Makefiles build for the CPU they run on. So does this one: every crate, shakmaty
# included, compiled with `-C target-cpu=native` (RUSTFLAGS reaches the dependencies too, where
# `cargo rustc -- -C ...` would reach only this crate), in a target folder of its own so that the
# portable build of `cargo build --release` (x86-64-v2, AVX2 found at run time) keeps its cache.
# A binary built here runs only on CPUs with the builder's instruction sets.
EXE ?= cutoff
NATIVE_TARGET ?= target/native

.PHONY: all native ci clean

all: native

native:
	RUSTFLAGS="-C target-cpu=native" cargo build --release --bin cutoff --target-dir $(NATIVE_TARGET)
	cp $(NATIVE_TARGET)/release/cutoff $(EXE)

# What CI runs on a clean clone: fmt, clippy, docs with warnings denied, the test suite.
ci:
	bash .ci/run

clean:
	cargo clean
	rm -f $(EXE)
