package profile

import (
	"math"

	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// The schema of a profile file: every key, what kind of value it holds and
// where it goes in a file. What the values mean together (a display's type
// and its bus, the GPIO lines each takes) is the checker's (validate.go).

const anyInt, maxInt = math.MinInt64, math.MaxInt64

func str[T any](key string, set func(*T, string)) tomldoc.Field[T] {
	return tomldoc.StringField(key, nil, set)
}

// names is a table of name = "string": a display's pins, the buttons.
func names[T any](key string, get func(*T) *map[string]string) tomldoc.Field[T] {
	return tomldoc.NamesField(key, "a table ["+key+"]: name = \"GPIO line\"", func(d *tomldoc.Decoder, dst *T, name string, v *tomldoc.Value, path tomldoc.Key) {
		s, ok := v.V.(string)
		if !ok {
			d.Wrong(v, path, "a string")
			return
		}
		if err := tomldoc.CheckText(s); err != nil {
			d.Errorf(v.Line, path, "%v in %q", err, s)
			return
		}
		m := get(dst)
		if *m == nil {
			*m = map[string]string{}
		}
		(*m)[name] = s
	})
}

// text is a key whose string u.UnmarshalText reads: a size, a duration.
func text[T any](key, want string, u func(*T) interface{ UnmarshalText([]byte) error }) tomldoc.Field[T] {
	return tomldoc.CustomField(key, want, func(dst *T, v *tomldoc.Value) error {
		s, ok := v.V.(string)
		if !ok {
			return tomldoc.Want(want)
		}
		return u(dst).UnmarshalText([]byte(s))
	})
}

var displaySchema = &tomldoc.Schema[fileDisplay]{Fields: []tomldoc.Field[fileDisplay]{
	str("type", func(d *fileDisplay, s string) { d.Type = s }),
	str("role", func(d *fileDisplay, s string) { d.Role = s }),
	str("bus", func(d *fileDisplay, s string) { d.Bus = s }),
	tomldoc.IntField("address", anyInt, maxInt, func(d *fileDisplay, n int64) { d.Address = n }),
	text("size", `a size like "128x64"`, func(d *fileDisplay) interface{ UnmarshalText([]byte) error } { return &d.Size }),
	names("pins", func(d *fileDisplay) *map[string]string { return &d.Pins }),
	tomldoc.IntField("speed_hz", anyInt, maxInt, func(d *fileDisplay, n int64) { d.SpeedHz = &n }),
}}

var buttonOptionsSchema = &tomldoc.Schema[fileButtonOptions]{Fields: []tomldoc.Field[fileButtonOptions]{
	tomldoc.BoolField("active_low", func(o *fileButtonOptions, b bool) { o.ActiveLow = &b }),
	str("pull", func(o *fileButtonOptions, s string) { o.Pull = s }),
	text("debounce", `a duration like "20ms"`, func(o *fileButtonOptions) interface{ UnmarshalText([]byte) error } { return &o.Debounce }),
	text("hold_after", `a duration like "1.5s"`, func(o *fileButtonOptions) interface{ UnmarshalText([]byte) error } { return &o.HoldAfter }),
}}

var buzzerSchema = &tomldoc.Schema[fileBuzzer]{Fields: []tomldoc.Field[fileBuzzer]{
	str("type", func(b *fileBuzzer, s string) { b.Type = s }),
	str("pin", func(b *fileBuzzer, s string) { b.Pin = s }),
	tomldoc.BoolField("active_low", func(b *fileBuzzer, v bool) { b.ActiveLow = v }),
	tomldoc.IntField("chip", math.MinInt32, math.MaxInt32, func(b *fileBuzzer, n int64) { b.Chip = int(n) }),
	tomldoc.IntField("channel", math.MinInt32, math.MaxInt32, func(b *fileBuzzer, n int64) { b.Channel = int(n) }),
	tomldoc.IntField("frequency", math.MinInt32, math.MaxInt32, func(b *fileBuzzer, n int64) { b.Frequency = int(n) }),
}}

var ledSchema = &tomldoc.Schema[fileLED]{Fields: []tomldoc.Field[fileLED]{
	str("type", func(l *fileLED, s string) { l.Type = s }),
	str("pin", func(l *fileLED, s string) { l.Pin = s }),
	tomldoc.BoolField("active_low", func(l *fileLED, b bool) { l.ActiveLow = b }),
	str("role", func(l *fileLED, s string) { l.Role = s }),
}}

var batterySchema = &tomldoc.Schema[fileBattery]{Fields: []tomldoc.Field[fileBattery]{
	str("type", func(b *fileBattery, s string) { b.Type = s }),
	str("bus", func(b *fileBattery, s string) { b.Bus = s }),
	tomldoc.IntField("address", anyInt, maxInt, func(b *fileBattery, n int64) { b.Address = &n }),
	tomldoc.FloatField("shunt_ohms", func(b *fileBattery, f float64) { b.ShuntOhms = &f }),
	tomldoc.FloatField("max_amps", func(b *fileBattery, f float64) { b.MaxAmps = &f }),
	tomldoc.IntField("cells", anyInt, maxInt, func(b *fileBattery, n int64) { b.Cells = &n }),
	tomldoc.CustomField("curve", "a list of [volts, percent] points", func(b *fileBattery, v *tomldoc.Value) error {
		const want = "a list of [volts of one cell, percent] points"
		if v.Kind != tomldoc.Array || v.ArrayOfTables {
			return tomldoc.Want(want)
		}
		b.Curve = [][]float64{}
		for _, pt := range v.Array() {
			if pt.Kind != tomldoc.Array {
				return tomldoc.Want(want)
			}
			var xy []float64
			for _, n := range pt.Array() {
				switch n := n.V.(type) {
				case float64:
					xy = append(xy, n)
				case int64:
					xy = append(xy, float64(n))
				default:
					return tomldoc.Want(want)
				}
			}
			b.Curve = append(b.Curve, xy)
		}
		return nil
	}),
	tomldoc.FloatField("low_percent", func(b *fileBattery, f float64) { b.LowPercent = &f }),
}}

var powerLossSchema = &tomldoc.Schema[filePowerLoss]{Fields: []tomldoc.Field[filePowerLoss]{
	str("pin", func(p *filePowerLoss, s string) { p.Pin = s }),
	tomldoc.BoolField("active_low", func(p *filePowerLoss, b bool) { p.ActiveLow = &b }),
	str("pull", func(p *filePowerLoss, s string) { p.Pull = s }),
}}

var rtcSchema = &tomldoc.Schema[fileRTC]{Fields: []tomldoc.Field[fileRTC]{
	str("type", func(r *fileRTC, s string) { r.Type = s }),
	str("bus", func(r *fileRTC, s string) { r.Bus = s }),
	tomldoc.IntField("address", anyInt, maxInt, func(r *fileRTC, n int64) { r.Address = &n }),
}}

var supplySchema = &tomldoc.Schema[fileSupply]{Fields: []tomldoc.Field[fileSupply]{
	tomldoc.IntField("current_ma", anyInt, maxInt, func(s *fileSupply, n int64) { s.CurrentMA = &n }),
	str("basis", func(s *fileSupply, v string) { s.Basis = v }),
}}

// profileSchema is the schema of a profile file.
var profileSchema = &tomldoc.Schema[file]{Fields: []tomldoc.Field[file]{
	str("name", func(f *file, s string) { f.Name = s }),
	str("description", func(f *file, s string) { f.Description = s }),
	tomldoc.MapField("display", displaySchema, func(f *file, name string, d fileDisplay) {
		if f.Display == nil {
			f.Display = map[string]fileDisplay{}
		}
		f.Display[name] = d
	}),
	names("buttons", func(f *file) *map[string]string { return &f.Buttons }),
	tomldoc.TableField("button_options", buttonOptionsSchema, func(f *file) *fileButtonOptions { return &f.ButtonOptions }),
	tomldoc.TableField("buzzer", buzzerSchema, func(f *file) *fileBuzzer { return &f.Buzzer }),
	tomldoc.MapField("led", ledSchema, func(f *file, name string, l fileLED) {
		if f.LED == nil {
			f.LED = map[string]fileLED{}
		}
		f.LED[name] = l
	}),
	tomldoc.TableField("battery", batterySchema, func(f *file) *fileBattery { f.Battery = &fileBattery{}; return f.Battery }),
	tomldoc.TableField("power_loss", powerLossSchema, func(f *file) *filePowerLoss { f.PowerLoss = &filePowerLoss{}; return f.PowerLoss }),
	tomldoc.TableField("rtc", rtcSchema, func(f *file) *fileRTC { f.RTC = &fileRTC{}; return f.RTC }),
	tomldoc.TableField("supply", supplySchema, func(f *file) *fileSupply { f.Supply = &fileSupply{}; return f.Supply }),
}}
