// SPDX-License-Identifier: GPL-2.0
/*
 * zeitnot_tryboot: the Raspberry Pi firmware's one-shot tryboot flag for
 * a kernel without it (image/README.md, "Updates").
 *
 * The firmware boots autoboot.txt's [tryboot] slot once when its tryboot
 * flag is set, and clears the flag before it starts the system. The flag is
 * set through the firmware's property mailbox, with the tag
 * SET_REBOOT_FLAGS and the value 1. Upstream Linux (and so Debian's
 * kernel) never sends that tag; this module does, on a restart whose
 * command has the word "tryboot" ("0 tryboot": systemctl reboot "0 tryboot"
 * or reboot(2) with LINUX_REBOOT_CMD_RESTART2), through the upstream
 * firmware driver's rpi_firmware_get() and rpi_firmware_property().
 *
 * The module's alias is the firmware's device-tree compatible, so udev
 * loads it with the firmware driver, on a Raspberry Pi only. It binds no
 * device: the firmware driver keeps the node. Loaded by hand on a machine
 * without the node it refuses to load (-ENODEV), with one kernel line.
 */

#include <linux/init.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/reboot.h>
#include <linux/string.h>
#include <soc/bcm2835/raspberrypi-firmware.h>

/* The property tag, from Raspberry Pi's firmware interface. */
#define ZEITNOT_SET_REBOOT_FLAGS	0x00038064
#define ZEITNOT_REBOOT_FLAG_TRYBOOT	0x1

static const struct of_device_id zeitnot_tryboot_of_match[] = {
	{ .compatible = "raspberrypi,bcm2835-firmware" },
	{}
};
MODULE_DEVICE_TABLE(of, zeitnot_tryboot_of_match);

static struct device_node *firmware_node;

/* has_word reports whether cmd has word as one of its space-separated words. */
static bool has_word(const char *cmd, const char *word)
{
	size_t n = strlen(word);
	const char *p = cmd;

	while ((p = strstr(p, word)) != NULL) {
		bool start = p == cmd || p[-1] == ' ';
		bool end = p[n] == '\0' || p[n] == ' ';

		if (start && end)
			return true;
		p += n;
	}
	return false;
}

static int zeitnot_tryboot_notify(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	const char *cmd = data;
	struct rpi_firmware *fw;
	u32 flags = ZEITNOT_REBOOT_FLAG_TRYBOOT;
	int ret;

	if (action != SYS_RESTART || !cmd || !has_word(cmd, "tryboot"))
		return NOTIFY_DONE;

	/*
	 * Taken here, not at load: the firmware driver may still have been
	 * waiting for its mailbox then. At a restart it is bound, and its
	 * shutdown (NOTIFY_REBOOT) runs only after the reboot notifiers.
	 */
	fw = rpi_firmware_get(firmware_node);
	if (!fw) {
		pr_err("zeitnot_tryboot: restart \"%s\": the Raspberry Pi firmware driver is not bound, tryboot flag not set\n",
		       cmd);
		return NOTIFY_DONE;
	}
	ret = rpi_firmware_property(fw, ZEITNOT_SET_REBOOT_FLAGS,
				    &flags, sizeof(flags));
	rpi_firmware_put(fw);
	if (ret)
		pr_err("zeitnot_tryboot: restart \"%s\": SET_REBOOT_FLAGS failed (%d), tryboot flag not set\n",
		       cmd, ret);
	else
		pr_info("zeitnot_tryboot: restart \"%s\": tryboot flag set for the next boot\n",
			cmd);
	return NOTIFY_DONE;
}

static struct notifier_block zeitnot_tryboot_nb = {
	.notifier_call = zeitnot_tryboot_notify,
};

static int __init zeitnot_tryboot_init(void)
{
	int ret;

	firmware_node = of_find_matching_node(NULL, zeitnot_tryboot_of_match);
	if (!firmware_node) {
		pr_info("zeitnot_tryboot: no Raspberry Pi firmware (raspberrypi,bcm2835-firmware) in the device tree, not loaded\n");
		return -ENODEV;
	}
	ret = register_reboot_notifier(&zeitnot_tryboot_nb);
	if (ret) {
		of_node_put(firmware_node);
		pr_err("zeitnot_tryboot: register_reboot_notifier: %d\n", ret);
		return ret;
	}
	pr_info("zeitnot_tryboot: a restart with \"tryboot\" sets the firmware's one-shot tryboot flag (%pOF)\n",
		firmware_node);
	return 0;
}

static void __exit zeitnot_tryboot_exit(void)
{
	unregister_reboot_notifier(&zeitnot_tryboot_nb);
	of_node_put(firmware_node);
}

module_init(zeitnot_tryboot_init);
module_exit(zeitnot_tryboot_exit);

MODULE_DESCRIPTION("Raspberry Pi firmware tryboot flag on a restart with \"tryboot\"");
MODULE_AUTHOR("zeitnot");
MODULE_LICENSE("GPL");
