#!/bin/bash
# patch-dtb.sh DIR: patches the Raspberry Pi device trees in DIR (the boot
# partition) for the clock's hardware. Debian's device trees have no
# __symbols__, so the firmware's dtparam=/dtoverlay= lines cannot do this.
#
#  - SPI0 on (GPIO 7-11), with two devices (CS0, CS1) for spidev: the udev
#    rule 60-zeitnot.rules binds compatible "zeitnot,spidev" to spidev.
#  - I2C1 (GPIO 2/3, already on) at 400 kHz, for the display.
#  - Aliases i2c0..i2c2 and spi0, so that the header's buses are always
#    /dev/i2c-1 and /dev/spidev0.N (without them the numbers follow probe
#    order), as the hardware profiles expect.
#  - Only with PWM=1: PWM0 on GPIO 18, for a passive buzzer. The built-in
#    hardware profiles drive an active buzzer on GPIO 18 as a plain GPIO line,
#    so by default the pin is left to GPIO.
#  - Only with RTC=ds3231: a DS3231 real-time clock at 0x68 on I2C1, for
#    builds whose profile has [rtc] type = "ds3231". The kernel's built-in
#    rtc-ds1307 driver makes it rtc0 and sets the system time from it.
# Pull-ups on the button pins are set by the daemon when it requests the
# lines (GPIO character device bias flags).
set -euo pipefail
trap 'echo "patch-dtb: failed at line $LINENO (${dtb:-})" >&2' ERR
dir=${1:?usage: patch-dtb.sh DIR}
case "${RTC:-}" in
"" | ds3231) ;;
*) echo "patch-dtb: RTC=$RTC: the only real-time clock known is ds3231" >&2; exit 1 ;;
esac

# phandle NODE DTB: the node's phandle, given one if it has none.
phandle() {
	local dtb=$2 node=$1 p
	if p=$(fdtget -t u "$dtb" "$node" phandle 2>/dev/null); then
		echo "$p"
		return
	fi
	p=$(dtc -q -I dtb -O dts "$dtb" | sed -n 's/.*phandle = <\(0x[0-9a-f]*\)>;.*/\1/p' | sort -u |
		while read -r h; do echo $((h)); done | sort -n | tail -n 1)
	p=$(( ${p:-0} + 1 ))
	fdtput -t u "$dtb" "$node" phandle "$p"
	echo "$p"
}

# child DTB PARENT PATTERN: the path of PARENT's child whose name matches.
child() {
	local name
	name=$(fdtget -l "$1" "$2" | grep -E -x "$3" | head -n 1) || return 1
	[ -n "$name" ] || return 1
	echo "$2/$name"
}

n=0
for dtb in "$dir"/bcm2*-rpi-*.dtb; do
	[ -e "$dtb" ] || continue
	gpio=$(child "$dtb" /soc 'gpio@7e200000') || { echo "patch-dtb: $dtb: no GPIO controller" >&2; exit 1; }

	spi=$(child "$dtb" /soc 'spi@7e204000') || { echo "patch-dtb: $dtb: no SPI0" >&2; exit 1; }
	fdtput -t s "$dtb" "$spi" status okay
	if pins=$(child "$dtb" "$gpio" 'spi0[_-]gpio7'); then
		fdtput -t u "$dtb" "$spi" pinctrl-0 "$(phandle "$pins" "$dtb")"
		fdtput -t s "$dtb" "$spi" pinctrl-names default
	fi
	for cs in 0 1; do
		fdtget "$dtb" "$spi/spidev@$cs" reg >/dev/null 2>&1 || fdtput -c "$dtb" "$spi/spidev@$cs"
		fdtput -t s "$dtb" "$spi/spidev@$cs" compatible zeitnot,spidev
		fdtput -t u "$dtb" "$spi/spidev@$cs" reg "$cs"
		fdtput -t u "$dtb" "$spi/spidev@$cs" spi-max-frequency 16000000
	done

	i2c=$(child "$dtb" /soc 'i2c@7e804000') || { echo "patch-dtb: $dtb: no I2C1" >&2; exit 1; }
	fdtput -t s "$dtb" "$i2c" status okay
	fdtput -t u "$dtb" "$i2c" clock-frequency 400000
	if [ "${RTC:-}" = ds3231 ]; then
		fdtget "$dtb" "$i2c/rtc@68" reg >/dev/null 2>&1 || fdtput -c "$dtb" "$i2c/rtc@68"
		fdtput -t s "$dtb" "$i2c/rtc@68" compatible maxim,ds3231
		fdtput -t u "$dtb" "$i2c/rtc@68" reg 104 # 0x68
	fi

	fdtput -t s "$dtb" /aliases i2c1 "$i2c"
	fdtput -t s "$dtb" /aliases spi0 "$spi"
	if node=$(child "$dtb" /soc 'i2c@7e205000'); then fdtput -t s "$dtb" /aliases i2c0 "$node"; fi
	if node=$(child "$dtb" /soc 'i2c@7e805000'); then fdtput -t s "$dtb" /aliases i2c2 "$node"; fi

	if [ "${PWM:-0}" = 1 ]; then
		pwm=$(child "$dtb" /soc 'pwm@7e20c000') || { echo "patch-dtb: $dtb: no PWM" >&2; exit 1; }
		fdtput -t s "$dtb" "$pwm" status okay
		if pins=$(child "$dtb" "$gpio" 'pwm0(-0)?[_-]gpio18'); then
			fdtput -t u "$dtb" "$pwm" pinctrl-0 "$(phandle "$pins" "$dtb")"
			fdtput -t s "$dtb" "$pwm" pinctrl-names default
		fi
	fi
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "patch-dtb: no Raspberry Pi device tree in $dir" >&2; exit 1; }
echo "patch-dtb: patched $n device trees (SPI0 on with spidev0.0/0.1, I2C1 at 400 kHz as i2c-1$([ "${PWM:-0}" = 1 ] && echo ', PWM0 on GPIO 18')$([ "${RTC:-}" = ds3231 ] && echo ', DS3231 at 0x68 on I2C1'))"
