# The SD image (image/README.md). `make image-deps` once (as root), then
# `make image`; `make image-test` boots it in QEMU and checks it.
.PHONY: image image-deps image-test image-test-pi3 image-test-update image-clean bundle

IMAGE_NAME := zeitnot-$(VERSION)-rpi-arm64
IMAGE_OUT  := out/$(IMAGE_NAME).img.xz

image-deps:
	@image/deps.sh

image: cross
	image/build.sh --version "$(VERSION)" --binary bin/zeitnot-linux-arm64 --out out

# The signed RAUC update bundle of the image just built, next to it:
# out/NAME.raucb and its payload's SHA-256 (image/README.md, "Updates").
bundle: image
	image/bundle.sh --version "$(VERSION)" --out out

# Boots the image under qemu-system-aarch64 -M virt and checks it over its
# consoles, then boots it as a Raspberry Pi 3 (-M raspi3b; IMAGE_TEST_PI3=0
# skips that part, image-test-pi3 runs only that part).
IMAGE_TEST_PI3 ?= 1
# The -M virt boot measures the data partition's flash writes per lever
# press; ZEITNOT_WRITE_GOAL=1 makes its goal (8 sectors per press) a
# failure, otherwise a miss is only reported.
ZEITNOT_WRITE_GOAL ?= 0

# Then the A/B update cases (image/README.md, "Updates"), with the signed
# bundle of the image (IMAGE_TEST_UPDATE=0 leaves them out, and the bundle's
# build with them).
IMAGE_TEST_UPDATE ?= 1

image-test: $(if $(filter 1,$(IMAGE_TEST_UPDATE)),bundle,image)
	$(GO) run ./image/boottest --image image/work/$(IMAGE_NAME).img --work image/work/boottest $(if $(filter 1,$(IMAGE_TEST_PI3)),--pi3) $(if $(filter 1,$(ZEITNOT_WRITE_GOAL)),--write-goal) $(if $(filter 1,$(IMAGE_TEST_UPDATE)),--bundle out/$(IMAGE_NAME).raucb)

# The A/B update cases alone.
image-test-update: bundle
	$(GO) run ./image/boottest --image image/work/$(IMAGE_NAME).img --bundle out/$(IMAGE_NAME).raucb --work image/work/boottest --virt=false

image-test-pi3: image
	$(GO) run ./image/boottest --image image/work/$(IMAGE_NAME).img --work image/work/boottest --virt=false --pi3

image-clean:
	rm -rf image/work image/cache out/zeitnot-*-rpi-arm64*
