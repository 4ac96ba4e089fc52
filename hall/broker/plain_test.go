package broker

import (
	"context"
	"crypto/tls"
	"net/url"
	"strings"
	"testing"
	"time"
)

// mqtts:// to a broker that speaks plain MQTT gave a misleading message;
// it says so now.
func TestMQTTSToPlainBroker(t *testing.T) {
	b, err := StartEmbedded(Opts{Addr: "127.0.0.1:0", Hall: "club", Anonymous: true, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err = Dial(ctx, ClientOpts{URL: &url.URL{Scheme: "mqtts", Host: b.Addr()}, Hall: "club", TLS: &tls.Config{ServerName: "127.0.0.1"}, Filter: "zeitnot/v1/club/board/+/+"})
	if err == nil {
		t.Fatal("mqtts:// to a plain broker connected")
	}
	t.Logf("%v", err)
	if !strings.Contains(err.Error(), "plain MQTT") || !strings.Contains(err.Error(), "mqtt://") {
		t.Errorf("the message does not say the broker speaks plain MQTT: %v", err)
	}
}
