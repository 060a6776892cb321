#!/usr/bin/env python3
"""Compares two screens captured by `tmux capture-pane -p -e` cell by cell:
the character, bold and dim, and the foreground and background colours.
Prints how many cells differ in character or style, in colour, and the
largest difference of a 24-bit channel. Spaces and the quadrant and half
Block Elements are compared by what their four quarters show (a space on a
colour and a half block in that colour on it look the same). Exits 1 when
a character or style differs or a colour by more than --tolerance (per
channel; 256-colour and 16-colour inks must be equal). --skip-rows leaves rows out (a clock).

usage: scripts/terminal-cells.py A B [--tolerance N] [--skip-rows 0,1]
"""
import re
import sys

SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def cells(path):
    rows = []
    # tmux writes each line's attributes as changes from the line before's.
    pen = {"fg": None, "bg": None, "bold": False, "dim": False}
    for line in open(path, encoding="utf-8").read().split("\n"):
        row = []
        i = 0
        while i < len(line):
            m = SGR.match(line, i)
            if m:
                apply(pen, [int(p) if p else 0 for p in re.split("[;:]", m.group(1))])
                i = m.end()
                continue
            row.append((line[i], pen["fg"] if line[i] != " " else None, pen["bg"],
                        pen["bold"], pen["dim"]))
            i += 1
        # tmux leaves out a row's trailing spaces, after the SGR of the last:
        # the row goes on in that background.
        rows.append((row, (" ", None, pen["bg"], False, False)))
    return rows


def apply(pen, p):
    k = 0
    while k < len(p):
        c = p[k]
        if c == 0:
            pen.update(fg=None, bg=None, bold=False, dim=False)
        elif c == 1:
            pen["bold"] = True
        elif c == 2:
            pen["dim"] = True
        elif c == 22:
            pen["bold"] = pen["dim"] = False
        elif c == 39:
            pen["fg"] = None
        elif c == 49:
            pen["bg"] = None
        elif 30 <= c <= 37 or 90 <= c <= 97:
            pen["fg"] = ("a", c)
        elif 40 <= c <= 47 or 100 <= c <= 107:
            pen["bg"] = ("a", c - 10)
        elif c in (38, 48) and k + 1 < len(p):
            key = "fg" if c == 38 else "bg"
            if p[k + 1] == 5:
                pen[key] = ("i", p[k + 2])
                k += 2
            elif p[k + 1] == 2:
                pen[key] = ("rgb", p[k + 2], p[k + 3], p[k + 4])
                k += 4
        k += 1


LEVELS = [0, 95, 135, 175, 215, 255]


def xterm256(n):
    """The colour of xterm 256-colour index n (16 to 255); None for the 16 ANSI colours."""
    if 16 <= n <= 231:
        n -= 16
        return (LEVELS[n // 36], LEVELS[n // 6 % 6], LEVELS[n % 6])
    if 232 <= n <= 255:
        return (8 + 10 * (n - 232),) * 3
    return None


def channel_gap(a, b):
    if a == b:
        return 0
    if a and b and a[0] == "rgb" and b[0] == "rgb":
        return max(abs(x - y) for x, y in zip(a[1:], b[1:]))
    return None


def palette_gap(a, b):
    """How far apart two 256-colour inks are, a channel at most; None for other inks."""
    if a and b and a[0] == "i" and b[0] == "i":
        x, y = xterm256(a[1]), xterm256(b[1])
        if x and y:
            return max(abs(p - q) for p, q in zip(x, y))
    return None


# The quarters a space or a Block Element fills with its foreground (bit 0
# top left, 1 top right, 2 bottom left, 3 bottom right).
GLYPHS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"
QUARTERS = {ch: mask for mask, ch in enumerate(GLYPHS)}


def quarter_inks(cell):
    """The ink of each quarter of a space or a Block Element; None for others."""
    mask = QUARTERS.get(cell[0])
    if mask is None:
        return None
    return [cell[1] if mask & (1 << k) else cell[2] for k in range(4)]


def main():
    args = sys.argv[1:]
    tolerance = 0
    step = None
    skip = set()
    if "--tolerance" in args:
        k = args.index("--tolerance")
        tolerance = int(args[k + 1])
        del args[k:k + 2]
    if "--palette-step" in args:
        k = args.index("--palette-step")
        step = int(args[k + 1])
        del args[k:k + 2]
    if "--skip-rows" in args:
        k = args.index("--skip-rows")
        skip = {int(r) for r in args[k + 1].split(",")}
        del args[k:k + 2]
    a, b = cells(args[0]), cells(args[1])
    shape = 0
    colour = 0
    gap = 0
    moved = 0
    largest_step = 0
    total = 0
    worst = True
    for r in range(max(len(a), len(b))):
        if r in skip:
            continue
        blank = (" ", None, None, False, False)
        ra, pa = a[r] if r < len(a) else ([], blank)
        rb, pb = b[r] if r < len(b) else ([], blank)
        for c in range(max(len(ra), len(rb))):
            x = ra[c] if c < len(ra) else pa
            y = rb[c] if c < len(rb) else pb
            total += 1
            if x[3:] != y[3:]:
                shape += 1
                continue
            if x[0] != y[0]:
                qx, qy = quarter_inks(x), quarter_inks(y)
                if qx is None or qy is None:
                    shape += 1
                    continue
                pairs = list(zip(qx, qy))
            else:
                pairs = [(x[1], y[1]), (x[2], y[2])]
            gaps = [channel_gap(i, j) for i, j in pairs]
            if step is not None and any(g is None for g in gaps):
                steps = [palette_gap(i, j) if g is None else 0 for (i, j), g in zip(pairs, gaps)]
                if all(s is not None for s in steps) and max(steps) <= step:
                    moved += 1
                    largest_step = max(largest_step, max(steps))
                    continue
            if any(g is None for g in gaps):
                colour += 1
                worst = False
            elif max(gaps) > 0:
                colour += 1
                gap = max(gap, max(gaps))
    neighbours = ""
    if step is not None:
        neighbours = (f"; {moved} in a 256-colour ink next to it on the palette"
                      f" (largest step {largest_step})")
    print(f"{total} cells compared: {shape} differ in character or style, {colour} in colour"
          f" (largest 24-bit channel difference {gap}{'' if worst else '; some inks differ'})"
          f"{neighbours}")
    ok = shape == 0 and worst and gap <= tolerance
    sys.exit(0 if ok else 1)


main()
