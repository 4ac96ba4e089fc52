package network_test

import (
	"fmt"

	"github.com/zeitnot/zeitnot/appliance/network"
)

func Example() {
	c, err := network.Parse("/etc/zeitnot/zeitnot.toml", []byte(`
[network]
ntp = "arbiter.local"

[network.wifi]
ssid = "Club"
passphrase = "correct horse"
country = "DE"
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Summary())
	files, err := network.Files(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range files {
		fmt.Printf("%s %04o\n", f.Path, f.Mode)
	}
	// Output:
	// Ethernet (DHCP), Wi-Fi "Club" (DE), NTP arbiter.local
	// systemd/network/50-zeitnot-ethernet.network 0644
	// systemd/network/50-zeitnot-wifi.network 0644
	// zeitnot-network/wpa_supplicant.conf 0600
	// systemd/timesyncd.conf.d/50-zeitnot.conf 0644
}

func ExampleParse_error() {
	_, err := network.Parse("zeitnot.toml", []byte("[network.wifi]\nssid = \"Club\"\npassphrase = \"short\"\ncountry = \"de\"\n"))
	fmt.Println(err)
	// Output:
	// zeitnot.toml:3: network.wifi.passphrase: want 8 to 63 characters (WPA2), got 5
	// zeitnot.toml:4: network.wifi.country: want two capital letters (ISO 3166), like "DE", got "de" (did you mean "DE"?)
}
