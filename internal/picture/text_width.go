package picture

// The causal chain sizes its boxes from its texts, so it sets the font of each text itself
// (font-family, font-size and font-weight attributes) and measures with that font's advance
// widths: DejaVu Sans, the widest of the sans faces the stack names (Liberation Sans, Arial and
// Helvetica are narrower for every ASCII character), so that an estimate is at least the width
// drawn by any of them.
const (
	chainFont   = "DejaVu Sans, Bitstream Vera Sans, Liberation Sans, Arial, Helvetica, sans-serif"
	fontAscent  = 0.93 // above the baseline, in em (DejaVu Sans: 1901/2048)
	fontDescent = 0.24 // below the baseline, in em (483/2048)
)

// advance holds DejaVu Sans's advance widths of the printable ASCII characters (' ' to '~'),
// in thousandths of an em, rounded up, read from DejaVuSans.ttf and DejaVuSans-Bold.ttf.
var advance = [2][95]uint16{
	{318, 401, 460, 838, 637, 951, 780, 275, 391, 391, 500, 838, 318, 361, 318, 337, 637, 637, 637, 637, 637, 637, 637, 637, 637, 637,
		337, 337, 838, 838, 838, 531, 1000, 685, 687, 699, 771, 632, 576, 775, 752, 295, 295, 656, 558, 863, 749, 788, 604, 788, 695, 635,
		611, 732, 685, 989, 686, 611, 686, 391, 337, 391, 838, 500, 500, 613, 635, 550, 635, 616, 353, 635, 634, 278, 278, 580, 278, 975,
		634, 612, 635, 635, 412, 521, 393, 634, 592, 818, 592, 592, 525, 637, 337, 637, 838},
	{349, 457, 521, 838, 696, 1002, 873, 307, 458, 458, 523, 838, 380, 416, 380, 366, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696,
		400, 400, 838, 838, 838, 581, 1000, 774, 763, 734, 831, 684, 684, 821, 837, 373, 373, 775, 638, 996, 837, 851, 733, 851, 771, 721,
		683, 813, 774, 1104, 771, 725, 726, 458, 366, 458, 838, 500, 500, 675, 716, 593, 716, 679, 436, 716, 712, 343, 343, 666, 343, 1042,
		712, 688, 716, 716, 494, 596, 479, 712, 652, 924, 646, 652, 583, 712, 366, 712, 838},
}

// textWidth is the width of t drawn in the chain's font at size px, bold or not: exact for
// DejaVu Sans, an upper bound for the narrower faces after it. A character outside ASCII counts
// 1.1 em, the widest ASCII glyph (bold W), which most faces' letters and signs (·, ×, é) stay
// under.
func textWidth(t string, size float64, bold bool) float64 {
	face := 0
	if bold {
		face = 1
	}
	w := 0
	for _, r := range t {
		if r >= ' ' && r <= '~' {
			w += int(advance[face][r-' '])
		} else {
			w += 1104
		}
	}
	return float64(w) / 1000 * size
}
