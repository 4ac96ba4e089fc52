package main

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/zeitnot/zeitnot/appliance/slot"
)

// firmware stands in for the Raspberry Pi firmware's choice of system
// slot, which QEMU (booting the kernel directly) does not have. As the
// firmware documents it (autoboot.txt, tryboot_a_b=1): it reads
// autoboot.txt on the card's first FAT partition; if its one-shot tryboot
// flag is set it clears the flag and boots the [tryboot] section's
// partition, else the [all] section's, with that partition's config.txt
// and cmdline.txt. The flag is set by a reboot with the argument
// "0 tryboot" (reboot(2)'s command, which the kernel prints as it
// restarts) and by nothing else; a power cut (QEMU killed) leaves it clear.
type firmware struct {
	tryboot bool
}

// restartRe is the kernel's last line before a restart with a command.
var restartRe = regexp.MustCompile(`reboot: Restarting system with command '([^']*)'`)

// boot returns the boot files the firmware would start from img, and the
// slot they belong to, and clears the flag.
func (fw *firmware) boot(ctx context.Context, img string, parts []partition, dir, dtb string) (*bootFiles, slot.Name, error) {
	text, err := command(ctx, 30*time.Second, "mtype", "-i", fat(img, part(parts, 1)), "::autoboot.txt")
	if err != nil {
		return nil, "", err
	}
	st, err := slot.Parse([]byte(text))
	if err != nil {
		return nil, "", err
	}
	n := st.Firmware(fw.tryboot)
	fw.tryboot = false
	b, err := extractBoot(ctx, img, part(parts, n.BootPartition()), dir, dtb)
	if err != nil {
		return nil, "", fmt.Errorf("slot %s (partition %d): %v", n, n.BootPartition(), err)
	}
	return b, n, nil
}

// restarted reads a guest's restart from its serial console: with the
// command "0 tryboot" (or "N tryboot") the flag is set for the next boot.
func (fw *firmware) restarted(console string) {
	if m := restartRe.FindAllStringSubmatch(console, -1); m != nil {
		last := m[len(m)-1][1]
		fw.tryboot = regexp.MustCompile(`^\d+ tryboot$`).MatchString(last)
	}
}
