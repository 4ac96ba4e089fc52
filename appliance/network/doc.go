// Package network turns the [network] table of zeitnot.toml into the files
// that systemd-networkd, wpa_supplicant and systemd-timesyncd read: what
// `zeitnot network` writes to /run at every boot.
//
// The clock has no network unless zeitnot.toml has a [network] table. A
// file without one (or no file at all) is valid: the clock stays off the
// network, and Apply removes whatever an earlier run wrote.
//
// # The table
//
//	[network]
//	ethernet = true               # DHCP on every wired port; the default when [network] is there
//	ntp = ["arbiter.local"]       # NTP servers for systemd-timesyncd: a string or a list;
//	                              # without it, Debian's defaults
//	# A fixed IPv4 address on Ethernet instead of DHCP:
//	# address = "192.168.1.50/24" # the address and its prefix length
//	# gateway = "192.168.1.1"     # optional, in that subnet
//	# dns = ["192.168.1.1"]       # optional: a string or a list of addresses
//
//	[network.wifi]                # optional
//	ssid = "Club"                 # 1 to 32 bytes
//	passphrase = "correct horse"  # WPA2-PSK: 8 to 63 printable ASCII characters,
//	                              # or passphrase_file = "/boot/firmware/wifi-passphrase"
//	country = "DE"                # ISO 3166 alpha-2 code: the regulatory domain, required
//
// Every key is checked, and each problem is reported with the file, the
// line and the key (*ConfigError): "zeitnot.toml:7: network.wifi.country:
// want two capital letters (ISO 3166), like "DE", got "de" (did you mean
// "DE"?)". An unknown key is refused with the nearest known one. No value
// may hold a control character; at least one of Ethernet and Wi-Fi must be
// on. A passphrase is never repeated in a message. Other tables and keys of
// the file are other programs' business and are not looked at.
//
// passphrase_file names a file holding the passphrase on one line (a
// relative name is taken from the config file's directory); Load and Parse
// read it, CheckFile does not (it runs on a laptop, where the file is not).
//
// # The files
//
// Files renders a Config; each File has a path relative to the output
// directory (/run on the clock):
//
//   - systemd/network/50-zeitnot-ethernet.network (0644), with Ethernet:
//     every physical wired port (Type=ether, Kind=!*: built in, USB, virtio;
//     no bridges or veth), DHCP (IPv4 and DHCPv6) or the fixed address.
//   - systemd/network/50-zeitnot-wifi.network (0644), with Wi-Fi: every
//     Wi-Fi interface (Type=wlan), DHCP. Its routes weigh more (metric 600
//     against 100) so a plugged cable wins.
//   - zeitnot-network/wpa_supplicant.conf (0600), with Wi-Fi: the country,
//     and one network with the SSID in hex and psk, the 256-bit key
//     derived from the passphrase and the SSID (PBKDF2-HMAC-SHA1, 4096
//     iterations, IEEE 802.11i; what wpa_passphrase prints). The
//     passphrase itself is written nowhere.
//   - systemd/timesyncd.conf.d/50-zeitnot.conf (0644), with ntp: NTP=.
//
// Both .network files ask for an IPv6 link-local address only (no
// 169.254.0.0/16 address when no DHCP server answers), resolve names by
// multicast DNS (arbiter.local) without answering for the clock's own name,
// and switch LLMNR off: nothing listens. Names and DNS servers reach
// programs through systemd-resolved.
//
// Apply writes the files atomically (a temporary file in the same
// directory, fsync, rename), never through a symbolic link, and removes
// the files of Paths that the config no longer asks for.
package network
