# membox: one static musl binary per target.  See README.
#   make [TARGET=NAME] [APPLETS="lowmem zoneinfo-wm"]   (NAME: a target of cross/targets)
#   make cross | run | check | size [OLD=DIR] | bench | fuzz | compare OLD=REV | devices | clean
VERSION  := 0.1
SH       := . cross/targets;
TARGET   ?= $(shell $(SH) target_native)
GNU      := $(shell $(SH) target_gnu $(TARGET))
MUSL     := $(shell $(SH) target_musl $(TARGET))
NATIVE   := $(shell $(SH) target_native)
# cross/targets lists them: the device targets (make cross) and the
# test-only canary (s390x, big-endian) that make check builds and tests too.
DEVICE_TARGETS := $(shell $(SH) target_list device)
ALL_TARGETS := $(shell $(SH) target_list all)

# The applet list has one source: include/applets.h.
ALL_APPLETS := $(shell sed -n 's/^APPLET([a-z_]*, "\([a-z-]*\)")$$/\1/p' include/applets.h)
APPLETS  ?= $(ALL_APPLETS)
APPLET_SRC := $(wildcard $(foreach a,$(APPLETS),applets/$(subst -,_,$(a)).c applets/$(subst -,_,$(a))_*.c))
CORE_SRC := $(filter-out core/main.c,$(wildcard core/*.c))

ifeq ($(TARGET),$(NATIVE))
CC_T     := gcc
else
CC_T     := $(GNU)-gcc
endif
SPECS    := /usr/lib/$(MUSL)/musl-gcc.specs
# Small code without tricks: -Os, whole-program optimisation (LTO), the
# linker dropping what nothing calls, and no padding of the code to a page
# of its own in the file (-z noseparate-code: up to 8 KiB of zeros in a
# binary this small, copied to every device's flash), and no RELRO
# segment: musl applies RELRO in its dynamic linker only, so in a static
# binary it would be nothing but page padding (up to 64 KiB on aarch64).
LTO      := -flto -flto-partition=one
CFLAGS   := -std=c11 -D_GNU_SOURCE -Os -Wall -Wextra -Werror -Iinclude \
            -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables \
            -fno-stack-protector -fno-pie -DMB_VERSION='"$(VERSION)"' $(LTO) $(XCFLAGS)
LDFLAGS  := -Os $(LTO) $(XCFLAGS) -static -no-pie -Wl,--gc-sections -Wl,--build-id=none -Wl,-z,noseparate-code -Wl,-z,norelro
BUILD    ?= build
B        := $(BUILD)/$(TARGET)
HDRS     := $(wildcard include/*.h applets/*.h)

.PHONY: all cross run check size bench fuzz fuzz-build clean setup tests asan compare devices devices-build
all: $(B)/membox tests

# Every applet's state, one union (include/applet.h): generated from the
# GLOBALS() blocks of the applets in the build.
GLOBALS_H = $(1)/gen/globals.h
$(B)/obj/%.o: %.c $(HDRS) Makefile
	@mkdir -p $(dir $@)
	$(CC_T) -specs $(SPECS) $(CFLAGS) -I$(B)/gen -c $< -o $@
$(patsubst %.c,$(B)/obj/%.o,core/main.c $(APPLET_SRC)): $(call GLOBALS_H,$(B))
.SECONDARY: $(call GLOBALS_H,$(B)) $(call GLOBALS_H,$(BUILD)/asan)
%/gen/globals.h: $(APPLET_SRC) cross/globals Makefile
	@mkdir -p $(dir $@)
	sh cross/globals $(APPLET_SRC) >$@

OBJS := $(patsubst %.c,$(B)/obj/%.o,$(CORE_SRC) core/main.c $(APPLET_SRC))
# musl's start files and libc.a, through the specs file musl-dev ships
$(B)/membox.elf: $(OBJS)
	$(CC_T) -specs $(SPECS) $(LDFLAGS) $(OBJS) -o $@
$(B)/membox: $(B)/membox.elf
	$(GNU)-strip -s -R .comment -o $@ $<

# Test programs of this target: the unit tests, one program linked against
# the core (tests/unit/main.c runs each tests/unit/NAME.c's unit_NAME,
# listed in the generated units.h), and the workload helpers the live
# tests run.
UNIT_SRC := $(filter-out tests/unit/main.c,$(wildcard tests/unit/*.c))
LIVE_SRC := $(wildcard tests/live/*.c)
CORE_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(CORE_SRC))
TEST_BINS := $(B)/unit $(patsubst tests/live/%.c,$(B)/%,$(LIVE_SRC))
tests: $(TEST_BINS)
UNITS_H = $(1)/gen/units.h
%/gen/units.h: $(UNIT_SRC) Makefile
	@mkdir -p $(dir $@)
	printf 'UNIT(%s)\n' $(notdir $(basename $(UNIT_SRC))) >$@
.SECONDARY: $(call UNITS_H,$(B)) $(call UNITS_H,$(BUILD)/asan)
$(B)/obj/tests/unit/main.o: $(call UNITS_H,$(B))
$(B)/unit: $(patsubst %.c,$(B)/obj/%.o,$(UNIT_SRC) tests/unit/main.c) $(CORE_OBJ)
	$(CC_T) -specs $(SPECS) $(LDFLAGS) $^ -o $@
$(B)/%: $(B)/obj/tests/live/%.o
	$(CC_T) -specs $(SPECS) $(LDFLAGS) $^ -o $@

cross:
	@for t in $(DEVICE_TARGETS); do $(MAKE) --no-print-directory TARGET=$$t || exit 1; done

setup:
	@sh cross/setup

# make devices [DEVICES="armhf mipsel"]: each device target's membox on a
# real kernel of its CPU, Debian's, under qemu-system (tests/devices/run
# says how).  Not part of check.
DEVICES ?= $(DEVICE_TARGETS)
DEV_PROGS := $(patsubst tests/devices/%.c,$(B)/devices/%,$(wildcard tests/devices/*.c))
$(B)/devices/%: $(B)/obj/tests/devices/%.o
	@mkdir -p $(dir $@)
	$(CC_T) -specs $(SPECS) $(LDFLAGS) $^ -o $@
devices-build: $(B)/membox $(B)/sr-share $(B)/sr-maps $(DEV_PROGS)
devices:
	@sh cross/setup devices $(BUILD)/devices
	@for t in $(DEVICES); do $(MAKE) --no-print-directory -j$(JOBS) TARGET=$$t devices-build || exit 1; done
	@MB_BUILD=$(BUILD) tests/devices/run -j $(JOBS) $(DEVICES)

# The sanitizer build (host compiler, glibc) of the binary and unit tests.
SAN := -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -Iinclude -fsanitize=address,undefined -fno-sanitize-recover=all -DMB_VERSION='"$(VERSION)"'
asan: $(BUILD)/asan/membox $(BUILD)/asan/unit $(patsubst tests/live/%.c,$(BUILD)/asan/%,$(LIVE_SRC))
# The core is compiled once; the binary and the unit program link it.
SAN_CORE := $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(CORE_SRC))
$(BUILD)/asan/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	clang $(SAN) -c $< -o $@
$(BUILD)/asan/membox: $(SAN_CORE) core/main.c $(APPLET_SRC) $(HDRS) $(call GLOBALS_H,$(BUILD)/asan)
	@mkdir -p $(BUILD)/asan
	clang $(SAN) -I$(BUILD)/asan/gen $(SAN_CORE) core/main.c $(APPLET_SRC) -o $@
$(BUILD)/asan/unit: $(UNIT_SRC) tests/unit/main.c $(SAN_CORE) $(HDRS) $(call UNITS_H,$(BUILD)/asan)
	@mkdir -p $(BUILD)/asan
	clang $(SAN) -Itests/unit -I$(BUILD)/asan/gen $(SAN_CORE) $(UNIT_SRC) tests/unit/main.c -o $@
$(BUILD)/asan/%: tests/live/%.c
	@mkdir -p $(BUILD)/asan
	clang -std=c11 -D_GNU_SOURCE -O1 -Wall -Wextra -Werror $< -o $@

# make bench: host-built helpers (bare loops, workloads) and the driver.
$(BUILD)/bench/%: tests/bench/%.c
	@mkdir -p $(BUILD)/bench
	gcc -O2 -Wall -Wextra -Werror -D_GNU_SOURCE $< -o $@
# The footprint table's reference: static musl, as membox is.
$(BUILD)/bench/hello: tests/bench/hello.c
	@mkdir -p $(BUILD)/bench
	musl-gcc -static -Os -Wall -Wextra -Werror $< -o $@
bench:
	@sh cross/setup bench
	@$(MAKE) --no-print-directory TARGET=$(NATIVE)
	@$(MAKE) --no-print-directory $(BUILD)/bench/bare $(BUILD)/bench/workload \
	    $(BUILD)/bench/exitrss $(BUILD)/bench/hello
	@tests/bench/run $(BUILD)/$(NATIVE)

# libFuzzer targets (host clang): one per parser, seeded from the fixtures.
FUZZ_SRC := $(wildcard tests/fuzz/*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))
FUZZ_SECONDS ?= 60
fuzz-build: $(FUZZ_BINS)
FUZZ_CC := clang -std=c11 -D_GNU_SOURCE -O1 -g -Iinclude -fno-sanitize-recover=all
FUZZ_CORE := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(CORE_SRC))
$(BUILD)/fuzz/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@
$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_CORE) $(HDRS)
	@mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $(FUZZ_CORE) $< -o $@
fuzz: setup fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run $(BUILD)/fuzz

run: setup
	@$(MAKE) --no-print-directory TARGET=$(NATIVE)
	build/$(NATIVE)/membox $(RUN_APPLET)
RUN_APPLET := $(if $(filter smaps-rollup,$(APPLETS)),$(if $(wildcard applets/smaps_rollup.c),smaps-rollup,zoneinfo-wm),zoneinfo-wm)

# Builds use every CPU (make -j), the tests a lane per CPU (tests/run -j):
# a third lane on two CPUs was measured slower, the scripts being more
# work than wait.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
LANES ?= $(JOBS)
check: setup
	@for t in $(ALL_TARGETS); do $(MAKE) --no-print-directory -j$(JOBS) TARGET=$$t || exit 1; done
	@$(MAKE) --no-print-directory -j$(JOBS) asan fuzz-build
	@MB_BUILD=$(BUILD) tests/run -j $(LANES) $(ALL_TARGETS) asan

# make size [OLD=DIR]: each built target's bytes; with OLD, the build
# directory of an older tree, the growth per symbol.
size:
	@sh cross/size $(BUILD) $(OLD)

# make compare OLD=REV: REV's native binary against this tree's, over the
# fixtures and the hostile trees (tests/compare says what is compared).
compare:
	@test -n "$(OLD)" || { echo 'make compare OLD=REV' >&2; exit 2; }
	@$(MAKE) --no-print-directory TARGET=$(NATIVE) $(B)/membox
	@rm -rf $(BUILD)/compare && mkdir -p $(BUILD)/compare/src
	@git archive $(OLD) | tar -x -C $(BUILD)/compare/src
	@$(MAKE) --no-print-directory -C $(BUILD)/compare/src TARGET=$(NATIVE) BUILD=build build/$(NATIVE)/membox >/dev/null
	@tests/compare $(BUILD)/compare/src/build/$(NATIVE)/membox $(BUILD)/$(NATIVE)/membox

clean:
	rm -rf $(BUILD)
