"""An exact reference for the numbers `collide check` writes, from SPEC §2.3-§2.5 alone.

Every double is an exact rational, so the inputs are `Fraction`s; a crossing of straight
pieces is rational, one with a circle adds a square root, and a capsule's sides (offset by
r / |b - a|) add another, so a crossing with a capsule may hold a root inside a root. Such
values are kept exactly as elements of a tower of quadratic extensions, `a + b*sqrt(d)`, whose
sign is decided exactly by squaring (see `sign`). "Correctly rounded" is then literal: the
double nearest the exact value, ties to the one with an even last mantissa bit, found by
bisection on the ordered doubles with exact comparisons (`round_to_double`).

Used by test_exact_points.py; Python 3 standard library only; slow on purpose, never clever.
"""
import math
import struct
from fractions import Fraction

# ---------------------------------------------------------------------------------------
# Exact real numbers: Fraction, or Root(a, b, d) = a + b*sqrt(d) over smaller roots


def depth(x):
    return x.depth if isinstance(x, Root) else 0


def key(x):
    """A structural order on numbers, used to order the roots of a tower."""
    if isinstance(x, Root):
        return (x.depth, key(x.d), key(x.a), key(x.b))
    return (0, (x.numerator, x.denominator))


class Root:
    """a + b*sqrt(d), d >= 0, where a, b and d use only roots that come before sqrt(d) in
    the order (depth of d, then `key(d)`). Arithmetic splits both operands over the greater
    of their outer roots, so any two numbers combine, whatever towers they were built in."""
    __slots__ = ("a", "b", "d", "depth", "rkey")

    def __init__(self, a, b, d):
        self.a, self.b, self.d = a, b, d
        self.depth = depth(d) + 1
        self.rkey = (self.depth, key(d))

    def __repr__(self):
        return f"({self.a!r} + {self.b!r}*sqrt({self.d!r}))"


def make(a, b, d):
    return a if b == 0 else Root(a, b, d)


def split(x, rkey, d):
    """x as (a, b) with x = a + b*sqrt(d), sqrt(d) being the root of order rkey."""
    if isinstance(x, Root) and x.rkey == rkey:
        return x.a, x.b
    return x, Fraction(0)


def outer(x, y):
    """The greater outer root of x and y (rkey, d), or None when both are rational."""
    best = None
    for v in (x, y):
        if isinstance(v, Root) and (best is None or v.rkey > best[0]):
            best = (v.rkey, v.d)
    return best


def add(x, y):
    o = outer(x, y)
    if o is None:
        return x + y
    (xa, xb), (ya, yb) = split(x, *o), split(y, *o)
    return make(add(xa, ya), add(xb, yb), o[1])


def neg(x):
    return Root(neg(x.a), neg(x.b), x.d) if isinstance(x, Root) else -x


def sub(x, y):
    return add(x, neg(y))


def mul(x, y):
    o = outer(x, y)
    if o is None:
        return x * y
    (xa, xb), (ya, yb) = split(x, *o), split(y, *o)
    d = o[1]
    return make(add(mul(xa, ya), mul(mul(xb, yb), d)), add(mul(xa, yb), mul(xb, ya)), d)


def div_rational(x, q):
    """x / q for a non-zero rational q: the only division the geometry needs."""
    q = Fraction(q)
    return Root(div_rational(x.a, q), div_rational(x.b, q), x.d) if isinstance(x, Root) else x / q


def sqrt(x):
    """The exact square root of x >= 0 (a Fraction when x is the square of one)."""
    if not isinstance(x, Root):
        n, m = x.numerator, x.denominator
        if n >= 0 and math.isqrt(n) ** 2 == n and math.isqrt(m) ** 2 == m:
            return Fraction(math.isqrt(n), math.isqrt(m))
    return Root(Fraction(0), Fraction(1), x)


def sign(x):
    """-1, 0 or 1, exactly. a + b*sqrt(d) with a and b of opposite signs has the sign of a
    when a^2 > b^2*d, of b*sqrt(d) when a^2 < b^2*d, and is 0 when they are equal."""
    if not isinstance(x, Root):
        return (x > 0) - (x < 0)
    sa, sb = sign(x.a), sign(x.b)
    if sign(x.d) == 0:
        return sa
    if sa == sb or sb == 0:
        return sa
    if sa == 0:
        return sb
    return sa * sign(sub(mul(x.a, x.a), mul(mul(x.b, x.b), x.d)))


def cmp(x, y):
    return sign(sub(x, y))


def approx(x):
    """A float near x (for messages and a first guess only, never for a decision)."""
    if isinstance(x, Root):
        return approx(x.a) + approx(x.b) * math.sqrt(max(approx(x.d), 0.0))
    return float(x)


# ---------------------------------------------------------------------------------------
# Correct rounding to a double, ties to even

MAX_KEY = 0x7FEFFFFFFFFFFFFF  # the bits of the greatest finite double


def from_key(k):
    """Doubles in order: key 0 is +0.0, key k > 0 the positive double with those bits,
    key -k its negation. Consecutive keys are consecutive doubles."""
    bits = struct.unpack("<d", struct.pack("<Q", abs(k)))[0]
    return -bits if k < 0 else bits


def to_key(f):
    k = struct.unpack("<Q", struct.pack("<d", abs(f)))[0]
    return -k if f < 0 else k


def round_to_double(x):
    """The double nearest the exact number x, ties to even (x within the finite range)."""
    if cmp(x, Fraction(from_key(MAX_KEY))) > 0 or cmp(x, Fraction(from_key(-MAX_KEY))) < 0:
        raise OverflowError(f"{approx(x)} is beyond the doubles")
    # Fast path: the float approximation is usually the answer; two exact comparisons with
    # the midpoints around it prove it.
    guess = to_key(approx(x)) if math.isfinite(approx(x)) else 0
    if -MAX_KEY < guess < MAX_KEY:
        below = (Fraction(from_key(guess - 1)) + Fraction(from_key(guess))) / 2
        above = (Fraction(from_key(guess)) + Fraction(from_key(guess + 1))) / 2
        if cmp(x, below) > 0 and cmp(x, above) < 0:
            return from_key(guess) + 0.0
    # Bisection: the greatest double lo <= x, then the nearer of lo and the next one.
    lo, hi = -MAX_KEY, MAX_KEY  # from_key(lo) <= x <= from_key(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if cmp(x, Fraction(from_key(mid))) >= 0:
            lo = mid
        else:
            hi = mid
    low, high = from_key(lo), from_key(hi)
    c = cmp(x, (Fraction(low) + Fraction(high)) / 2)
    if c == 0:  # a tie: the one whose mantissa is even (whose key is even)
        return (low if lo % 2 == 0 else high) + 0.0
    return (low if c < 0 else high) + 0.0  # + 0.0 turns -0.0 into 0.0


# ---------------------------------------------------------------------------------------
# Outlines as pieces
#
# A straight piece is P + t*D for t in [lo, hi] (None: unbounded), with D rational (even a
# capsule's side runs along its rational core) and P exact. A circle piece is (C, r) with C
# and r rational; a capsule's cap is the half of it on the side `half` points to.


class Straight:
    def __init__(self, p, d, lo, hi):
        self.p, self.d, self.lo, self.hi = p, d, lo, hi

    def at(self, t):
        return (add(self.p[0], mul(t, self.d[0])), add(self.p[1], mul(t, self.d[1])))

    def holds(self, t):
        return ((self.lo is None or cmp(t, self.lo) >= 0) and
                (self.hi is None or cmp(t, self.hi) <= 0))


class Circle:
    def __init__(self, c, r, half=None, ends=()):
        self.c, self.r, self.half, self.ends = c, r, half, ends

    def holds(self, x):
        """x on the circle is on this piece (the whole circle, or the half toward `half`)."""
        if self.half is None:
            return True
        dot = add(mul(sub(x[0], self.c[0]), self.half[0]), mul(sub(x[1], self.c[1]), self.half[1]))
        return sign(dot) >= 0


class Point:
    def __init__(self, p):
        self.p = p


def fr(v):
    return Fraction(v)  # exact: every double, and every int, is a Fraction


def vec(p):
    return (fr(p[0]), fr(p[1]))


def segment(a, b):
    return Straight(a, (b[0] - a[0], b[1] - a[1]), Fraction(0), Fraction(1))


def chain(points, closed):
    """The segments of a polyline or polygon, consecutive repeated vertices dropped."""
    pts = [vec(p) for p in points]
    kept = [p for i, p in enumerate(pts) if i == 0 or p != pts[i - 1]]
    if closed and len(kept) > 1 and kept[-1] == kept[0]:
        kept.pop()
    if len(set(kept)) == 1:
        return [Point(kept[0])]
    ends = list(zip(kept, kept[1:] + kept[:1])) if closed else list(zip(kept, kept[1:]))
    return [segment(a, b) for a, b in ends]


def turn(angle):
    """cos and sin of an angle in degrees as SPEC §2.5 says: angle mod 360 is C's fmod plus
    360 when negative (so -45 and 315 give the same doubles); exact at multiples of 90, else
    the double cos and sin of (angle mod 360)*pi/180, evaluated left to right."""
    a = math.fmod(angle, 360.0)
    if a < 0:
        a += 360.0
    if math.fmod(a, 90.0) == 0:
        return [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][int(a) // 90 % 4]
    radians = a * math.pi / 180
    return math.cos(radians), math.sin(radians)


def quarter_cos_sin(k, n):
    """cos and sin of theta_k = ((2 pi) k) / n in doubles, exactly 0 and +-1 when 4k is a
    multiple of n (SPEC §2.5)."""
    if 4 * k % n == 0:
        return [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][4 * k // n]
    theta = 2 * math.pi * k / n
    return math.cos(theta), math.sin(theta)


def box_corners(shape):
    """A box's corners in doubles, each product rounded, sums left to right (SPEC §2.5)."""
    cx, cy = (float(v) for v in shape["center"])
    w, h = (float(v) for v in shape["size"])
    c, s = turn(float(shape.get("angle", 0)))
    return [(cx + sx * c - sy * s, cy + sx * s + sy * c)
            for sx, sy in [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]]


def ellipse_vertices(shape):
    cx, cy = (float(v) for v in shape["center"])
    rx, ry = (float(v) for v in shape["radii"])
    c, s = turn(float(shape.get("angle", 0)))
    n = int(shape.get("vertices", 32))
    out = []
    for k in range(n):
        ck, sk = quarter_cos_sin(k, n)
        ex, ey = rx * ck, ry * sk
        out.append((cx + ex * c - ey * s, cy + ex * s + ey * c))
    return out


def capsule_pieces(a, b, r):
    """Two sides (the core moved by r along its normals) and two half circles."""
    d = (b[0] - a[0], b[1] - a[1])
    m = d[0] * d[0] + d[1] * d[1]
    # The unit normal times r is (-dy, dx) * r / sqrt(m) = (-dy, dx) * (r / m) * sqrt(m).
    root = sqrt(m)
    off = (mul(-d[1] * r / m, root), mul(d[0] * r / m, root))
    def ends(c):
        return [(add(c[0], mul(sgn, off[0])), add(c[1], mul(sgn, off[1]))) for sgn in (1, -1)]
    return [Straight(p, d, Fraction(0), Fraction(1)) for p in ends(a)] + [
        Circle(a, r, half=(-d[0], -d[1]), ends=ends(a)), Circle(b, r, half=d, ends=ends(b))]


def pieces(shape):
    """The outline of a shape (SPEC §2.3) as pieces; a compound is handled by the caller."""
    t = shape["type"]
    if t == "point":
        return [Point(vec(shape["at"]))]
    if t == "circle" or (t == "ellipse" and shape["radii"][0] == shape["radii"][1]):
        c = vec(shape["center"])
        r = fr(shape["radius"] if t == "circle" else shape["radii"][0])
        return [Point(c)] if r == 0 else [Circle(c, r)]
    if t == "rect":
        lo, hi = rect_corners(shape)
        return chain([lo, (hi[0], lo[1]), hi, (lo[0], hi[1])], closed=True) \
            if lo[0] != hi[0] and lo[1] != hi[1] else chain([lo, hi], closed=False)
    if t == "segment":
        return chain([shape["a"], shape["b"]], closed=False)
    if t == "line":
        a, b = vec(shape["a"]), vec(shape["b"])
        return [Straight(a, (b[0] - a[0], b[1] - a[1]), None, None)]
    if t == "ray":
        return [Straight(vec(shape["origin"]), vec(shape["direction"]), Fraction(0), None)]
    if t == "polygon":
        return chain(shape["points"], closed=True)
    if t == "polyline":
        return chain(shape["points"], closed=False)
    if t == "box":
        return chain(box_corners(shape), closed=True)
    if t == "ellipse":
        return chain(ellipse_vertices(shape), closed=True)
    if t == "capsule":
        a, b, r = vec(shape["a"]), vec(shape["b"]), fr(shape["radius"])
        return [Circle(a, r)] if a == b else capsule_pieces(a, b, r)
    raise ValueError(f"no outline for a {t}")


def rect_corners(shape):
    if "min" in shape:
        return vec(shape["min"]), vec(shape["max"])
    if "width" in shape:  # the max corner is the IEEE sum (SPEC §1.1)
        x, y = float(shape["x"]), float(shape["y"])
        return vec((x, y)), vec((x + float(shape["width"]), y + float(shape["height"])))
    ys = sorted([shape["top"], shape["bottom"]])
    return vec((shape["left"], ys[0])), vec((shape["right"], ys[1]))


# ---------------------------------------------------------------------------------------
# Where two pieces meet: a list of exact points


def cross(u, v):
    return sub(mul(u[0], v[1]), mul(u[1], v[0]))


def dot(u, v):
    return add(mul(u[0], v[0]), mul(u[1], v[1]))


def minus(p, q):
    return (sub(p[0], q[0]), sub(p[1], q[1]))


def same(p, q):
    return cmp(p[0], q[0]) == 0 and cmp(p[1], q[1]) == 0


def straight_straight(s, u):
    den = cross(s.d, u.d)  # rational: both directions are
    w = minus(u.p, s.p)
    if den != 0:
        t, v = div_rational(cross(w, u.d), den), div_rational(cross(w, s.d), den)
        return [s.at(t)] if s.holds(t) and u.holds(v) else []
    if sign(cross(w, s.d)) != 0:
        return []  # parallel, apart
    # Collinear: u's range in s's parameter; the shared piece's finite ends.
    dd = dot(s.d, s.d)
    t0 = div_rational(dot(w, s.d), dd)
    scale = dot(u.d, s.d) / dd  # rational, non-zero
    ends = [None if e is None else add(t0, mul(e, scale)) for e in (u.lo, u.hi)]
    if scale < 0:
        ends.reverse()
    lo = s.lo if ends[0] is None or (s.lo is not None and cmp(s.lo, ends[0]) > 0) else ends[0]
    hi = s.hi if ends[1] is None or (s.hi is not None and cmp(s.hi, ends[1]) < 0) else ends[1]
    if lo is not None and hi is not None and cmp(lo, hi) > 0:
        return []
    return [s.at(t) for t in (lo, hi) if t is not None]


def straight_circle(s, c):
    """|P + tD - C|^2 = r^2, a quadratic in t with a rational leading coefficient."""
    w = minus(s.p, c.c)
    qa = dot(s.d, s.d)
    qb = dot(s.d, w)  # half the linear coefficient
    qc = sub(dot(w, w), c.r * c.r)
    disc = sub(mul(qb, qb), mul(qa, qc))
    sg = sign(disc)
    if sg < 0:
        return []
    roots = [div_rational(neg(qb), qa)] if sg == 0 else \
        [div_rational(add(neg(qb), mul(e, sqrt(disc))), qa) for e in (-1, 1)]
    out = []
    for t in roots:
        if s.holds(t):
            x = s.at(t)
            if c.holds(x):
                out.append(x)
    return out


def circle_circle(c, e):
    d = (e.c[0] - c.c[0], e.c[1] - c.c[1])
    dd = d[0] * d[0] + d[1] * d[1]
    if dd == 0:
        return []  # concentric: apart, or the same circle (no points, SPEC §2.3)
    # The radical line: C + k*d + t*perp(d), k rational.
    k = (c.r * c.r - e.r * e.r + dd) / (2 * dd)
    line = Straight((c.c[0] + k * d[0], c.c[1] + k * d[1]), (-d[1], d[0]), None, None)
    return [x for x in straight_circle(line, c) if e.holds(x)]


def point_on(p, q):
    """[p] when the point p lies on piece q."""
    if isinstance(q, Point):
        return [p] if same(p, q.p) else []
    if isinstance(q, Straight):
        w = minus(p, q.p)
        if sign(cross(w, q.d)) != 0:
            return []
        return [p] if q.holds(div_rational(dot(w, q.d), dot(q.d, q.d))) else []
    w = minus(p, q.c)
    return [p] if cmp(dot(w, w), q.r * q.r) == 0 and q.holds(p) else []


def meet(p, q):
    if isinstance(p, Point):
        return point_on(p.p, q)
    if isinstance(q, Point):
        return point_on(q.p, p)
    if isinstance(p, Straight) and isinstance(q, Straight):
        return straight_straight(p, q)
    if isinstance(p, Straight):
        return straight_circle(p, q)
    if isinstance(q, Straight):
        return straight_circle(q, p)
    if p.c == q.c and p.r == q.r:
        # One circle: two whole ones share no end point (SPEC §2.3); a capsule's half circle
        # shares with it an arc whose ends are those of either half that lie on the other
        # (the reading of the conformance corpus, as for straight shared pieces).
        return [x for x in p.ends if q.holds(x)] + [x for x in q.ends if p.holds(x)]
    return circle_circle(p, q)


def parts(shape):
    return shape["parts"] if shape["type"] == "compound" else [shape]


def exact_points(s1, s2):
    """Every exact point where the outlines of s1 and s2 meet (duplicates possible)."""
    out = []
    for a in parts(s1):
        for b in parts(s2):
            for p in pieces(a):
                for q in pieces(b):
                    out.extend(meet(p, q))
    return out


def rounded_points(s1, s2):
    """`points` as SPEC §2.3 asks: each coordinate correctly rounded, sorted, no duplicates."""
    return sorted({(round_to_double(x), round_to_double(y)) for x, y in exact_points(s1, s2)})


# ---------------------------------------------------------------------------------------
# Grid moves (SPEC §2.4): the exact t of a point or rect body swept along its path


def axis_interval(lo, lo_closed, hi, hi_closed, start, step):
    """The t where lo < start + t*step < hi (<= at a closed end), as (a, a_closed, b,
    b_closed) with None for an unbounded end, or False when there is no such t."""
    if step == 0:
        inside = (start > lo or (lo_closed and start == lo)) and (start < hi or (hi_closed and start == hi))
        return (None, False, None, False) if inside else False
    a, b = (lo - start) / step, (hi - start) / step
    return (a, lo_closed, b, hi_closed) if step > 0 else (b, hi_closed, a, lo_closed)


def intersect(u, v):
    if u is False or v is False:
        return False
    lo, lo_closed = u[0], u[1]
    if v[0] is not None and (lo is None or v[0] > lo or (v[0] == lo and not v[1])):
        lo, lo_closed = v[0], v[1]
    hi, hi_closed = u[2], u[3]
    if v[2] is not None and (hi is None or v[2] < hi or (v[2] == hi and not v[3])):
        hi, hi_closed = v[2], v[3]
    if lo is not None and hi is not None and (lo > hi or (lo == hi and not (lo_closed and hi_closed))):
        return False
    return (lo, lo_closed, hi, hi_closed)


def grid_cells(grid):
    if "rows" in grid:
        solid = grid.get("solid", "#")
        return [[ch in solid for ch in row] for row in grid["rows"]]
    return [[v != 0 for v in row] for row in grid["cells"]]


def move_stop(grid, move, y_up=False):
    """(t, cells hit at t) for a `check: path` move of a point or rect body on a grid, t
    exact; None when the move is allowed. Cells are [col, row] as reports write them."""
    body = move.get("body", {"type": "point"})
    half = (Fraction(0), Fraction(0)) if body["type"] == "point" else \
        (fr(body["size"][0]) / 2, fr(body["size"][1]) / 2)
    if body["type"] not in ("point", "rect") or move.get("check", "path") != "path":
        raise ValueError("only point and rect bodies on a path")
    ts = grid["tile_size"]
    tw, th = (fr(ts), fr(ts)) if not isinstance(ts, list) else vec(ts)
    ox, oy = vec(grid.get("origin", [0, 0]))
    solid = grid_cells(grid)
    nrows, ncols = len(solid), len(solid[0])
    outside_solid = grid.get("outside", "solid") == "solid"
    f, to = vec(move["from"]), vec(move["to"])
    v = (to[0] - f[0], to[1] - f[1])
    span = [range(math.floor((min(f[k], to[k]) - half[k] - o) / s) - 1,
                  math.floor((max(f[k], to[k]) + half[k] - o) / s) + 2)
            for k, o, s in ((0, ox, tw), (1, oy, th))]
    best, hits = None, []
    for i in span[0]:
        for j in span[1]:
            row = nrows - 1 - j if y_up else j
            inside = 0 <= i < ncols and 0 <= row < nrows
            if not (solid[row][i] if inside else outside_solid):
                continue
            box = ((ox + i * tw, ox + (i + 1) * tw), (oy + j * th, oy + (j + 1) * th))
            if body["type"] == "point":  # half-open cells: [min, max)
                axes = [axis_interval(box[k][0], True, box[k][1], False, f[k], v[k]) for k in (0, 1)]
            else:  # open body and open cell share a point
                axes = [axis_interval(box[k][0] - half[k], False, box[k][1] + half[k], False, f[k], v[k])
                        for k in (0, 1)]
            span_t = intersect(intersect(axes[0], axes[1]), (Fraction(0), True, Fraction(1), True))
            if span_t is False:
                continue
            t = span_t[0]
            if best is None or t < best:
                best, hits = t, []
            if t == best:
                hits.append((row, i))
    if best is None:
        return None
    return best, [[i, row] for row, i in sorted(hits)]
