package screen

import "testing"

func TestLCD(t *testing.T) {
	cases := []struct {
		scene string
		role  Role
		want  string
	}{
		{"start", Left, "W 1:30:30     M0\nP1              "},
		{"start", Both, "1:30:30  1:30:30\nW M0 P1  M0 P1 B"},
		{"running", Left, "W 1:29:05    M12\nP1 ============="},
		{"running", Right, "B 58:12      M12\nP1              "},
		{"running", Both, "1:29:05<   58:12\nW M12      M12 B"},
		{"period", Both, "  45:05 >  30:30\nW M41      M41 B"},
		{"tenths", Left, "W 0:09.7        \n================"},
		{"tenths", Both, " 0:09.7<    3:12\nW              B"},
		{"flags", Left, "W 0:00.0        \nFLAG 1ST        "},
		{"flags", Right, "B 0:00.0        \nFLAG 2ND        "},
		{"flags", Both, " 0:00.0   0:00.0\nW FLG1    FLG2 B"},
		{"flag", Both, "   3:04   0:00.0\nW         FLAG B"},
		{"overstep", Left, "W 30:12      M38\nOVERSTEP P2 ===="},
		{"overstep", Both, "  30:12<   40:50\nW OS P2    M39 B"},
		{"delay", Left, "W 4:59          \nDELAY 4 ========"},
		{"delay", Both, "   4:59<    5:12\nW D4           B"},
		// The long form of every status word, as on the pixel panels (the
		// LCD used to write "OT 5", a form of its own).
		{"byoyomi", Right, "B 10:00         \nOVERTIME 5      "},
		{"byoyomi", Both, "   0:28<   10:00\nW OT3      OT5 B"},
		{"paused", Left, "W 1:29:05    M12\nPAUSED P1       "},
		{"paused", Both, "1:29:05    58:12\nW    PAUSED    B"},
		{"recovered", Right, "B 58:12      M12\nRECOVERED PAUSED"},
		{"recovered", Both, "1:29:05    58:12\nW  RECOVERED   B"},
		{"menu", Left, "Start game      \n> Blitz 5+3     "},
		{"menu", Right, "> Blitz 5+3     \n+/- choose ok   "},
		{"edit", Both, "Set time: White \n> Time 1:[30]:00"},
		{"edit", Right, "> Time 1:[30]:00\n+/- change ok   "},
		{"message", Left, "zeitnot.toml:12:\ntenths_below:   "},
		// A page of picks has no cursor: no '>' before its first item.
		{"picks", Both, "Menu            \n  < FIDE >      "},
		// An item too long for its line takes the title's: its name
		// over its value.
		{"long", Both, "> Time of day   \n  18:30 NTP     "},
		{"long", Left, "> Time of day   \n  18:30 NTP     "},
	}
	for _, tc := range cases {
		var v View
		switch tc.scene {
		case "picks":
			v = View{Kind: KindMenu, Menu: Menu{Title: "Menu", Items: []string{"< FIDE >", "> Rapid >"}, Cursor: -1}}
		case "long":
			v = View{Kind: KindMenu, Menu: Menu{Title: "Setup", Items: []string{"Round start none", "Time of day 18:30 NTP", "About"}, Cursor: 1}}
		default:
			v = sceneView(t, tc.scene)
		}
		if got := NewTextScreen(Characters, 16, 2, tc.role).Render(&v); got != tc.want {
			t.Errorf("%s on 16x2, %v:\n%s\nwant\n%s", tc.scene, tc.role, got, tc.want)
		}
	}
}

func BenchmarkRenderLCD16x2(b *testing.B) {
	s := NewTextScreen(Characters, 16, 2, Both)
	v := runningView()
	b.ReportAllocs()
	for b.Loop() {
		v.Game.Left.Ms -= 1000
		s.Render(&v)
	}
}
