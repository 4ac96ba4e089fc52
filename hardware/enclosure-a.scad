// Enclosure for reference build A (profile two-ssd1306-i2c): two 0.96"
// SSD1306 OLEDs behind windows in a sloped front, two 30 mm arcade buttons
// as levers on the top, pause on the top between them, minus, ok and plus
// in the front between the displays, a Raspberry Pi 3 or 4 on the base.
//
// Parts (make enclosure renders them to out/):
//   part = "shell"   the box, upside down as it prints (top on the bed;
//                    the sloped front overhangs 90 - front_angle degrees)
//   part = "base"    the bottom plate with the Pi's and perfboard's posts
//   part = "view"    the clock put together, for the picture
//   part = "inside"  the same, cut open left of the left lever
//
// All sizes in mm. Check the parts you bought against the [Parts]
// parameters before printing: modules of the same name differ.

/* [What to render] */
part = "view"; // [shell, base, view, inside]

/* [Box] */
width = 210;        // left to right
depth = 100;        // front to back
back_h = 70;        // height at the back, base included
front_h = 22;       // height of the front edge below the sloped face
front_angle = 55;   // sloped face, degrees from the table
wall = 3;           // walls, top and front; the arcade buttons' snap-in clips grip 1.5 to 4
corner_r = 5;       // rounding of the vertical edges
base_t = 3;         // bottom plate
fit = 0.3;          // clearance of the base inside the shell

/* [Parts: 0.96" SSD1306 OLED module] */
oled_board = [27, 27];          // the module's board
oled_board_t = 1.6;
oled_glass = [26.7, 19.3, 1.5]; // the panel glass on its front
oled_window = [21.7, 10.9];     // the active area, shown through the window
oled_window_margin = 0.6;       // window larger than the active area by this, all round
oled_window_offset = 1.0;       // the active area's centre above the board's centre, toward its pin header
oled_skin = 1.0;                // front left over the glass, in its pocket
oled_holes = [23, 23];          // the module's mounting holes, centre to centre
oled_hole_d = 2.0;

/* [Parts: 30 mm arcade buttons (levers)] */
lever_hole = 28;      // a 30 mm snap-in button needs a 28 mm hole (a 24 mm one, 24)
lever_flange_d = 33;  // its rim on the top
lever_flange_h = 3;
lever_cap_d = 24;     // the plunger players press
lever_cap_h = 9;      // plunger above the rim at rest
lever_travel = 4;     // how far the plunger goes down
lever_depth = 38;     // below the top: body, microswitch and its spade terminals
lever_body_d = 25;
lever_inset = 42;     // lever centre from the box's side

/* [Parts: 12 x 12 mm tact switches] */
tact = 12;            // the switch's square body
tact_height = 13;     // switch with its cap on, above the board it is soldered to
tact_cap_d = 11.6;    // round cap
tact_hole = 12.6;     // hole for the cap
tact_cap_out = 2.5;   // cap above the front
tact_pitch = 24;      // between minus, ok and plus
tact_board_t = 1.6;   // the perfboard strip they are soldered to
tact_post_d = 6;
tact_screw_d = 2.2;   // M2.5 self-tapping into the posts

/* [Parts: Raspberry Pi 3 B / 4 B] */
pi_board = [85, 56];
pi_board_t = 1.6;
pi_holes = [58, 49];  // mounting holes, centre to centre
pi_hole_inset = 3.5;  // holes from the board's SD-card end and header edge
pi_standoff = 6;
pi_screw_d = 2.2;     // M2.5 self-tapping
pi_power_x = 11.2;    // USB-C (Pi 4; micro-USB on a Pi 3: 10.6) from the SD-card end
pi_power_cut = [14, 9];
pi_ports_h = 16;      // tallest part on the board (USB and Ethernet)

/* [Parts: perfboard 5 x 7 cm] */
perf_board = [50, 70];
perf_holes = [46, 66];
perf_standoff = 5;
perf_parts_h = 12;    // tallest part on it (the transistors)

/* [Parts: buzzer] */
buzzer_d = 12;
buzzer_h = 9.5;

/* [Hidden] */
$fn = 48;
eps = 0.01;
a = front_angle;
slope_y = (back_h - front_h) / tan(a);  // where the slope meets the top
slope_len = (back_h - front_h) / sin(a);
top_y = (slope_y + depth) / 2;          // levers and pause, front to back
pi_pos = [(width - pi_board[0]) / 2, depth - wall - fit - 1.5 - pi_board[1]];
lever_xs = [lever_inset, width - lever_inset];
post_d = 9;
post_in = wall + post_d / 2 - 1;        // the corner posts' centres, from the outside: into both walls by 1
post_xy = [[post_in, post_in], [width - post_in, post_in], [post_in, depth - post_in], [width - post_in, depth - post_in]];
oled_s = slope_len / 2;                 // the displays and menu buttons, up the slope
tact_xs = [width / 2 - tact_pitch, width / 2, width / 2 + tact_pitch];
tact_strip = [2 * tact_pitch + tact + 30, tact + 10];
post_h = front_h - base_t - 2;

// What must fit, checked before anything is drawn.
assert(back_h - wall - base_t >= lever_depth + lever_travel, "the levers' bodies do not fit under the top: raise back_h or use shorter buttons");
assert(depth - slope_y - 2 * wall >= lever_flange_d + 4, "the levers' rims do not fit on the top: more depth or a steeper front");
assert(lever_inset >= lever_flange_d / 2 + wall + 3, "the levers are too near the sides");
assert(slope_len - 2 * wall >= oled_board[1] + 4, "the OLED modules do not fit on the sloped front: raise back_h or lower front_angle");
assert(width / 2 - tact_strip[0] / 2 + 5 - tact_post_d / 2 > lever_xs[0] + oled_board[0] / 2 + 2, "the menu buttons' board runs into the left display: more width or a smaller tact_pitch");
assert(tact_standoff() >= 2, "the tact switches are too short for this wall");
assert(pi_pos[1] >= slope_y, "the Pi reaches under the sloped front: more depth");
lever_bottom = back_h - wall - lever_depth;
function apart(x0, x1, c, r) = x1 < c - r || x0 > c + r;  // [x0, x1] clear of c ± r
assert(base_t + pi_standoff + pi_board_t + pi_ports_h < lever_bottom || (apart(pi_pos[0], pi_pos[0] + pi_board[0], lever_xs[0], lever_body_d / 2) && apart(pi_pos[0], pi_pos[0] + pi_board[0], lever_xs[1], lever_body_d / 2)),
    "the Pi's ports reach the levers' microswitches");
assert(base_t + perf_standoff + 1.6 + perf_parts_h < lever_bottom, "the perfboard's parts reach the left lever's microswitch");
assert(wall <= 4, "arcade buttons snap into panels up to about 4 mm");

// The side profile of the box, in (y, z).
module profile() {
    polygon([[0, 0], [depth, 0], [depth, back_h], [slope_y, back_h], [0, front_h]]);
}

// Footprint with rounded vertical edges.
module footprint(inset = 0) {
    r = max(corner_r - inset, 0.5);
    translate([inset + r, inset + r]) offset(r = r) square([width - 2 * inset - 2 * r, depth - 2 * inset - 2 * r]);
}

// Children placed on the sloped front: x across, s up the slope from its
// bottom edge; local z is the outward normal, 0 on the outer face.
module on_slope(x, s) {
    translate([x, 0, front_h]) rotate([a, 0, 0]) translate([0, s, 0]) children();
}

// Children placed on the top: local z 0 on the outer face.
module on_top(x, y) {
    translate([x, y, back_h]) children();
}

module outer() {
    intersection() {
        rotate([90, 0, 90]) linear_extrude(width) profile();
        linear_extrude(back_h + 1) footprint();
    }
}

module inner() {
    intersection() {
        translate([0, 0, -1]) rotate([90, 0, 90]) linear_extrude(width) offset(delta = -wall) profile();
        translate([0, 0, -1]) linear_extrude(back_h) footprint(wall);
    }
    // Open at the bottom, where the base goes in.
    translate([0, 0, -1]) linear_extrude(base_t + 1 + eps) footprint(wall);
}


module shell() {
    difference() {
        union() {
            difference() {
                outer();
                inner();
            }
            // Corner posts for the base's screws.
            for (p = post_xy) translate([p[0], p[1], base_t]) cylinder(d = post_d, h = post_h);
            // Pegs for the OLED modules' holes, and posts for the tact strip.
            for (x = lever_xs) on_slope(x, oled_s) oled_pegs();
            for (dx = [-1, 1]) on_slope(width / 2 + dx * (tact_strip[0] / 2 - 5), oled_s)
                translate([0, 0, -wall - tact_standoff() + eps]) cylinder(d = tact_post_d, h = tact_standoff());
            for (dx = [-1, 1]) on_top(width / 2 + dx * (tact / 2 + 9), top_y)
                translate([0, 0, -wall - tact_standoff() + eps]) cylinder(d = tact_post_d, h = tact_standoff());
            // A ring holding the buzzer behind its sound holes.
            translate([width - 30, depth - wall + eps, back_h / 2]) rotate([90, 0, 0]) difference() {
                cylinder(d = buzzer_d + 4, h = buzzer_h);
                translate([0, 0, -1]) cylinder(d = buzzer_d + 0.4, h = buzzer_h + 2);
            }
        }
        // Screw holes in the posts.
        for (p = post_xy) translate([p[0], p[1], base_t - 1]) cylinder(d = 2.5, h = post_h - 2);
        for (x = lever_xs) on_top(x, top_y) translate([0, 0, -wall - 1]) cylinder(d = lever_hole, h = wall + 2);
        on_top(width / 2, top_y) translate([0, 0, -wall - 1]) cylinder(d = tact_hole, h = wall + 2);
        for (x = lever_xs) on_slope(x, oled_s) oled_cut();
        for (x = tact_xs) on_slope(x, oled_s) translate([0, 0, -wall - 1]) cylinder(d = tact_hole, h = wall + 2);
        for (dx = [-1, 1]) on_slope(width / 2 + dx * (tact_strip[0] / 2 - 5), oled_s)
            translate([0, 0, -wall - tact_standoff() - 1]) cylinder(d = tact_screw_d, h = tact_standoff());
        for (dx = [-1, 1]) on_top(width / 2 + dx * (tact / 2 + 9), top_y)
            translate([0, 0, -wall - tact_standoff() - 1]) cylinder(d = tact_screw_d, h = tact_standoff());
        // The Pi's power socket, in the back wall.
        translate([pi_pos[0] + pi_power_x - pi_power_cut[0] / 2, depth - wall - 1, base_t + pi_standoff + pi_board_t - 2])
            cube([pi_power_cut[0], wall + 2, pi_power_cut[1]]);
        // Sound holes for the buzzer.
        for (i = [0 : 4]) translate([width - 30 + (i == 0 ? 0 : 3.2 * cos(90 * i)), depth + 1, back_h / 2 + (i == 0 ? 0 : 3.2 * sin(90 * i))])
            rotate([90, 0, 0]) cylinder(d = 1.8, h = wall + 2, $fn = 16);
        // The name, pressed into the back.
        translate([width / 2, depth - 0.6, back_h / 2]) rotate([90, 0, 180])
            linear_extrude(1) text("zeitnot", size = 9, halign = "center", valign = "center");
    }
}

// How far the tact switches' board stands behind the panel, so that their
// caps reach through their holes by tact_cap_out.
function tact_standoff() = tact_height - tact_cap_out - wall;

// The window of an OLED, with a pocket for its glass on the inside.
module oled_cut() {
    w = oled_window + [2, 2] * oled_window_margin;
    translate([-w[0] / 2, oled_window_offset - w[1] / 2, -wall - 1]) cube([w[0], w[1], wall + 2]);
    // The glass: centred on the board; the active area sits oled_window_offset above.
    translate([-(oled_glass[0] + 0.6) / 2, -(oled_glass[1] + 0.6) / 2, -wall - 1]) cube([oled_glass[0] + 0.6, oled_glass[1] + 0.6, wall + 1 - oled_skin]);
}

module oled_pegs() {
    for (i = [-1, 1], j = [-1, 1]) translate([i * oled_holes[0] / 2, j * oled_holes[1] / 2, -wall - oled_board_t - 2 + eps])
        cylinder(d = oled_hole_d - 0.25, h = oled_board_t + 2, $fn = 16);
}

module base() {
    difference() {
        union() {
            linear_extrude(base_t) footprint(wall + fit);
            // The Pi's posts.
            for (i = [0, 1], j = [0, 1]) translate([pi_pos[0] + pi_hole_inset + i * pi_holes[0], pi_pos[1] + pi_hole_inset + j * pi_holes[1], 0])
                cylinder(d = 6, h = base_t + pi_standoff);
            // The perfboard's posts, left of the Pi.
            for (i = [-1, 1], j = [-1, 1]) translate(perf_centre() + [i * perf_holes[0] / 2, j * perf_holes[1] / 2, 0])
                cylinder(d = 6, h = base_t + perf_standoff);
        }
        for (i = [0, 1], j = [0, 1]) translate([pi_pos[0] + pi_hole_inset + i * pi_holes[0], pi_pos[1] + pi_hole_inset + j * pi_holes[1], 1])
            cylinder(d = pi_screw_d, h = base_t + pi_standoff);
        for (i = [-1, 1], j = [-1, 1]) translate(perf_centre() + [i * perf_holes[0] / 2, j * perf_holes[1] / 2, 1])
            cylinder(d = pi_screw_d, h = base_t + perf_standoff);
        // Countersunk M3 screws into the shell's corner posts.
        for (p = post_xy) translate([p[0], p[1], -eps]) {
            cylinder(d = 3.4, h = base_t + 1);
            cylinder(d1 = 6.4, d2 = 3.4, h = 1.6);
        }
        // Vents under the Pi.
        for (k = [0 : 6]) translate([pi_pos[0] + 14 + k * 9, pi_pos[1] + 10, -1]) cube([4, pi_board[1] - 20, base_t + 2]);
    }
}

function perf_centre() = [wall + fit + 4 + perf_board[0] / 2, (depth) / 2, 0];

// ---- The parts as bought, for the pictures ----

module oled_module(digits) {
    color("#1f4e9c") translate([-oled_board[0] / 2, -oled_board[1] / 2, -oled_board_t]) cube([oled_board[0], oled_board[1], oled_board_t]);
    color("#111111") translate([-oled_glass[0] / 2, -oled_glass[1] / 2, 0]) cube([oled_glass[0], oled_glass[1], oled_glass[2]]);
    color("#dff3ff") translate([0, oled_window_offset, oled_glass[2]]) linear_extrude(0.2)
        text(digits, size = 3.4, halign = "center", valign = "center", font = "DejaVu Sans:style=Bold");
}

module arcade_button(c) {
    color("#303030") translate([0, 0, 0]) cylinder(d = lever_flange_d, h = lever_flange_h);
    color(c) translate([0, 0, lever_flange_h]) cylinder(d = lever_cap_d, h = lever_cap_h - 1);
    color(c) translate([0, 0, lever_flange_h + lever_cap_h - 1]) scale([1, 1, 0.25]) sphere(d = lever_cap_d);
    color("#404040") translate([0, 0, -wall - (lever_depth - 14)]) cylinder(d = lever_body_d, h = lever_depth - 14);
    color("#202020") translate([-10, -6.5, -wall - lever_depth]) cube([20, 13, 14]);
}

module tact_switch(c) {
    z = -wall - tact_standoff();  // the board's face
    color("#b88a3e") translate([-tact, -tact / 2 - 4, z - tact_board_t]) cube([2 * tact, tact + 8, tact_board_t]);
    color("#202020") translate([-tact / 2, -tact / 2, z]) cube([tact, tact, 3.6]);
    color("#909090") translate([0, 0, z + 3.6]) cylinder(d = 3.5, h = 3);
    color(c) translate([0, 0, z + 6.6]) cylinder(d = tact_cap_d, h = tact_cap_out - z - 6.6);
}

module pi() {
    translate([pi_pos[0], pi_pos[1], base_t + pi_standoff]) {
        color("#1f7a3a") cube([pi_board[0], pi_board[1], pi_board_t]);
        // USB and Ethernet at the far end, the header along the front edge.
        color("#c8c8c8") translate([pi_board[0] - 17, 2, pi_board_t]) cube([20, 52, pi_ports_h - 3]);
        color("#111111") translate([7, 1, pi_board_t]) cube([51, 5, 8.5]);
        color("#b0b0b0") translate([pi_power_x - 4.5, pi_board[1] - 6, pi_board_t]) cube([9, 7.5, 3.2]);
    }
}

module perfboard() {
    color("#b88a3e") translate(perf_centre() + [-perf_board[0] / 2, -perf_board[1] / 2, base_t + perf_standoff]) cube([perf_board[0], perf_board[1], 1.6]);
}

// The clock put together; cut, the shell left of the left lever's centre
// is taken away to show what is inside.
module assembled(cut) {
    color("#e4e1d8") difference() {
        shell();
        if (cut) translate([-1, -1, -1]) cube([lever_xs[0] + 1, depth + 2, back_h + 2]);
    }
    color("#8c8a84") base();
    // Each module's glass in the pocket, its board on the inside of the front.
    on_slope(lever_xs[0], oled_s) translate([0, 0, -wall]) oled_module("1:29:55");
    on_slope(lever_xs[1], oled_s) translate([0, 0, -wall]) oled_module("1:30:00");
    on_top(lever_xs[0], top_y) arcade_button("#f4f1e6");
    on_top(lever_xs[1], top_y) arcade_button("#2a2a2a");
    on_top(width / 2, top_y) tact_switch("#d9a400");
    for (x = tact_xs) on_slope(x, oled_s) tact_switch("#4a4a4a");
    if (cut) {
        pi();
        perfboard();
    }
}

if (part == "shell") translate([0, depth, back_h]) rotate([180, 0, 0]) shell();
else if (part == "base") base();
else if (part == "inside") assembled(true);
else assembled(false);
