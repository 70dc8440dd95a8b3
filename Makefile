# vpsbench — build, test and install.
# Optional libraries are probed: a missing one turns the code that needs it
# into "unavailable: built without X" instead of a build failure.

VERSION  := 0.1.0
CC       ?= cc
PREFIX   ?= /usr/local
WARN     := -Wall -Wextra -Werror
CPPFLAGS += -D_GNU_SOURCE -DVPSBENCH_VERSION='"$(VERSION)"' -I.
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 $(WARN) -pthread -MMD -MP
LDLIBS   += -pthread -lm

probe = $(shell printf '#include <$(1)>\nint main(void){return 0;}\n' | \
	$(CC) -x c - -o /dev/null $(2) 2>/dev/null && echo 1)

HAVE_LIBURING := $(call probe,liburing.h,-luring)
HAVE_LIBAIO   := $(call probe,libaio.h,-laio)
HAVE_CJSON    := $(call probe,cjson/cJSON.h,-lcjson)
HAVE_LIBCURL  := $(call probe,curl/curl.h,-lcurl)
HAVE_LIBCRYPTO := $(call probe,openssl/evp.h,-lcrypto)
HAVE_LIBMICROHTTPD := $(call probe,microhttpd.h,-lmicrohttpd)

ifeq ($(HAVE_LIBURING),1)
CPPFLAGS += -DHAVE_LIBURING
LDLIBS   += -luring
endif
ifeq ($(HAVE_LIBAIO),1)
CPPFLAGS += -DHAVE_LIBAIO
LDLIBS   += -laio
endif
ifeq ($(HAVE_CJSON),1)
CPPFLAGS += -DHAVE_CJSON
LDLIBS   += -lcjson
endif
ifeq ($(HAVE_LIBCURL),1)
CPPFLAGS += -DHAVE_LIBCURL
LDLIBS   += -lcurl
endif
ifeq ($(HAVE_LIBCRYPTO),1)
CPPFLAGS += -DHAVE_LIBCRYPTO
LDLIBS   += -lcrypto
endif
# `vpsbench watch`'s /metrics server; without it only --listen none works
ifeq ($(HAVE_LIBMICROHTTPD),1)
CPPFLAGS += -DHAVE_LIBMICROHTTPD
LDLIBS   += -lmicrohttpd
endif

# sysbench's cpu event in sysbench's compiler class: its configure builds
# with OPTIMIZE_CFLAGS "-O2 -funroll-loops" (Debian adds -O2 again).
build/rel/modules/cpu/cpu_prime.o build/static/modules/cpu/cpu_prime.o \
build/static-aarch64/modules/cpu/cpu_prime.o: CFLAGS += -funroll-loops

# Every stage folder: core, the modules (one folder each), grade, report, render,
# and cmd (subcommands that run the stages, like bench.c).
LIB_SRC  := $(sort $(wildcard core/*.c modules/*/*.c grade/*.c report/*.c render/*.c render/*/*.c cmd/*.c cmd/*/*.c))
TEST_SRC := $(sort $(wildcard tests/test_*.c))

REL_OBJ  := $(LIB_SRC:%.c=build/rel/%.o)
SAN_OBJ  := $(LIB_SRC:%.c=build/san/%.o)
TEST_OBJ := $(TEST_SRC:%.c=build/san/%.o)

SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

.PHONY: all test check unit smoke clean install deps mutate
# plain `make` builds the binary (mutate, written first below, is not the default)
.DEFAULT_GOAL := all
# Mutation testing (long, not part of `make test`): each mutant of
# tests/mutants.txt applied alone to a copy of the tree, rebuilt, and run
# against the test named for it; prints caught/survived and the score.
mutate:
	@scripts/mutate.py

all: vpsbench

vpsbench: build/rel/bench.o $(REL_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/rel/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

build/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) -O1 $(SANFLAGS) -c -o $@ $<

build/san/vpsbench: build/san/bench.o $(SAN_OBJ)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS)

build/san/unit: $(TEST_OBJ) $(SAN_OBJ)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LDLIBS)

# The whole suite: unit and fixture tests, then smoke runs of the binary,
# all under ASan/UBSan. Prints one "N passed, N failed" line at the end.
# The binaries are built one job per CPU (each is one link of many small
# objects; a serial build was a quarter of the suite's time on 2 vCPUs).
NPROC := $(shell nproc 2>/dev/null || echo 2)
test:
	@$(MAKE) --no-print-directory -j$(NPROC) vpsbench build/san/vpsbench build/san/unit fuzz-build
	@tests/run-all.sh

# The edit-build-test loop: the unit tests and the scripts marked
# "# run-all: check" (at most 90 s on 2 vCPUs); `make test` stays the suite.
check:
	@$(MAKE) --no-print-directory -j$(NPROC) vpsbench build/san/vpsbench build/san/unit
	@TEST_SET=check tests/run-all.sh

deps:
	./install.sh --deps-only

install: vpsbench
	install -D -m 0755 vpsbench $(DESTDIR)$(PREFIX)/bin/vpsbench
	install -D -m 0644 man/vpsbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/vpsbench.1

clean:
	rm -rf build vpsbench

# Fully static binary (musl): scripts/build-static.sh builds the libraries
# from Debian source packages into $(STATIC_DEPS) (cached, keyed on the
# package versions), then the sources are compiled here with the same
# CPPFLAGS and CFLAGS as the dynamic build, every optional library on.
# The stages that measure nothing (grade/, render/, report/, cmd/*.c: not
# cmd/watch/, whose probes time I/O and wake-ups) are built for size
# (-Os, about 74 KB less): room under the 3.0 MiB cap for the published
# results' tables; modules/ and core/ keep -O2, so no figure changes.
STATIC_OS_DIRS := grade render report
static_size_flag = $(if $(filter $(STATIC_OS_DIRS),$(firstword $(subst /, ,$(1))))$(filter cmd/%.c,$(filter-out cmd/watch/%,$(1))),-Os)
STATIC_DEPS := build/static-deps
STATIC_OBJ  := $(patsubst %.c,build/static/%.o,bench.c $(LIB_SRC))
# libcrypto (the cpu module's AES/SHA passes) comes with curl's OpenSSL: on
# when the link line has -lcrypto (STATIC_TLS=openssl), off with wolfssl.
# The net module's iperf3 client is vpsbench's own (cJSON and sockets), so
# the static binaries have it too. libmicrohttpd (`vpsbench watch`'s
# /metrics server) is on when the link line has -lmicrohttpd: deps built by
# an older build-static.sh lack it until their next run.
static_cppflags = -DHAVE_LIBURING -DHAVE_LIBAIO -DHAVE_CJSON -DHAVE_LIBCURL \
	$(if $(findstring -lcrypto,$(shell cat $(1)/ldlibs 2>/dev/null)),-DHAVE_LIBCRYPTO) \
	$(if $(findstring -lmicrohttpd,$(shell cat $(1)/ldlibs 2>/dev/null)),-DHAVE_LIBMICROHTTPD) \
	-isystem $(1)/prefix/include -isystem $(1)/kinc
STATIC_CPPFLAGS = $(call static_cppflags,$(STATIC_DEPS))
RELEASE_URL ?=
STATIC_ARCH := x86_64

.PHONY: static static-deps dist
static: static-deps
	@$(MAKE) --no-print-directory vpsbench-static

static-deps $(STATIC_DEPS)/versions $(STATIC_DEPS)/ldlibs:
	@scripts/build-static.sh $(STATIC_DEPS)

build/static/%.o: %.c $(STATIC_DEPS)/versions
	@mkdir -p $(dir $@)
	musl-gcc $(filter-out -DHAVE_LIBCRYPTO -DHAVE_LIBMICROHTTPD,$(CPPFLAGS)) $(STATIC_CPPFLAGS) $(CFLAGS) $(call static_size_flag,$<) -c -o $@ $<

vpsbench-static: $(STATIC_OBJ) $(STATIC_DEPS)/ldlibs
	musl-gcc -static $(CFLAGS) -Wl,--gc-sections -o $@.tmp $(STATIC_OBJ) $$(cat $(STATIC_DEPS)/ldlibs) -pthread -lm
	strip $@.tmp
	@scripts/static-check.sh $@.tmp
	mv $@.tmp $@

# aarch64: `make static-aarch64` builds vpsbench-static-aarch64 the same
# way on this x86_64 host: the same Debian source packages cross-built with
# Debian's gcc-aarch64-linux-gnu against musl built from Debian's musl
# source, cached in $(A64_DEPS) (build-static.sh DIR aarch64).
# tests/smoke_static_aarch64.sh runs it under qemu-aarch64-static
# (package qemu-user-static) and skips when either is missing.
A64_DEPS := build/static-deps-aarch64
A64_CC   := $(A64_DEPS)/musl/bin/musl-gcc
A64_OBJ  := $(patsubst %.c,build/static-aarch64/%.o,bench.c $(LIB_SRC))

.PHONY: static-aarch64 static-deps-aarch64
static-aarch64: static-deps-aarch64
	@$(MAKE) --no-print-directory vpsbench-static-aarch64

static-deps-aarch64 $(A64_DEPS)/versions $(A64_DEPS)/ldlibs:
	@scripts/build-static.sh $(A64_DEPS) aarch64

build/static-aarch64/%.o: %.c $(A64_DEPS)/versions
	@mkdir -p $(dir $@)
	$(A64_CC) $(filter-out -DHAVE_LIBCRYPTO -DHAVE_LIBMICROHTTPD,$(CPPFLAGS)) $(call static_cppflags,$(A64_DEPS)) $(CFLAGS) $(call static_size_flag,$<) -c -o $@ $<

vpsbench-static-aarch64: $(A64_OBJ) $(A64_DEPS)/ldlibs
	$(A64_CC) -static $(CFLAGS) -Wl,--gc-sections -o $@.tmp $(A64_OBJ) $$(cat $(A64_DEPS)/ldlibs) -pthread -lm
	aarch64-linux-gnu-strip $@.tmp
	@scripts/static-check.sh $@.tmp
	mv $@.tmp $@

# Release layout: both binaries (x86_64 and aarch64), their checksums, and
# install.sh pinned to both; the installer picks by `uname -m`.
dist: static static-aarch64
	@mkdir -p dist
	cp vpsbench-static dist/vpsbench-$(STATIC_ARCH)
	cp vpsbench-static-aarch64 dist/vpsbench-aarch64
	cd dist && sha256sum vpsbench-$(STATIC_ARCH) > vpsbench-$(STATIC_ARCH).sha256 && \
		sha256sum vpsbench-aarch64 > vpsbench-aarch64.sha256
	scripts/static-pin.sh install.sh dist/install.sh $(VERSION) '$(RELEASE_URL)' \
		$(STATIC_ARCH) "$$(cut -d' ' -f1 dist/vpsbench-$(STATIC_ARCH).sha256)"
	scripts/static-pin.sh dist/install.sh dist/install.sh $(VERSION) '$(RELEASE_URL)' \
		aarch64 "$$(cut -d' ' -f1 dist/vpsbench-aarch64.sha256)"
	@ls -l dist

# libFuzzer targets (tests/fuzz/fuzz_*.c) with ASan+UBSan, built by clang
# (Debian: clang, libclang-rt-14-dev). `make fuzz` builds them, `make
# fuzz-smoke` runs each for a few seconds on its corpus; `make test` does
# both when clang can link a fuzzer and skips them cleanly when it cannot.
# The library objects are warning-checked by the gcc builds (-Werror);
# here clang only adds the fuzzer instrumentation.
FUZZ_CC     ?= clang
FUZZ_SRC    := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN    := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
FUZZ_OBJ    := $(LIB_SRC:%.c=build/fuzz/obj/%.o)
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -O1 -g -std=gnu11 -Wall -Wextra -pthread -MMD -MP $(FUZZ_SAN)
FUZZ_OK      = $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, long n){(void)d;(void)n;return 0;}\n' | \
	$(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null && echo 1)

.PHONY: fuzz fuzz-build fuzz-smoke
fuzz: $(FUZZ_BIN)

# For `make test`: build the fuzzers only where clang can.
fuzz-build:
	@if [ "$(FUZZ_OK)" = 1 ]; then $(MAKE) --no-print-directory fuzz; \
	else echo "fuzz: $(FUZZ_CC) with -fsanitize=fuzzer not available, fuzz targets skipped"; fi

fuzz-smoke: fuzz-build
	@tests/fuzz/smoke.sh

build/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_common.h $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -Werror -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

-include $(shell find build/rel build/san build/fuzz build/static build/static-aarch64 -name '*.d' 2>/dev/null)
