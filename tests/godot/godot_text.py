"""Godot 4's text resource format (.tscn, .tres, project.godot), read for
reference_import.py: headers `[tag attr=value ...]`, `key = value` properties up to the next
header (properties before any header too), `;` comments, and every value form Godot writes:
null/true/false, ints, reals (inf, -inf, inf_neg, nan), strings with escapes (\\uXXXX,
\\UXXXXXX), &"StringName", ^"NodePath", arrays, dictionaries, typed Array[T](...) and
Dictionary[K, V](...), constructors (Vector2(1, 2), PackedByteArray("base64"), ...),
Object(Class, "k": v), SubResource("id") and ExtResource("id").

Written from the format as it appears in files, with no Godot code.
"""
import math
import re


class SceneError(Exception):
    """A scene that cannot be read; the message names the file, and line:column where known."""


class Ctor:
    """A constructor value: Vector2(1, 2), PackedByteArray("..."), Object(Class, ...)."""

    def __init__(self, name, args):
        self.name, self.args = name, args

    def __repr__(self):
        return f"{self.name}{tuple(self.args)!r}"


class Ref:
    """SubResource("id") or ExtResource("id"), resolved later in the file that wrote it."""

    def __init__(self, kind, rid, doc, line):
        self.kind, self.rid, self.doc, self.line = kind, rid, doc, line


class Parser:
    def __init__(self, text, path):
        self.s, self.i, self.path = text, 0, path

    def where(self, i=None):
        i = self.i if i is None else i
        line = self.s.count("\n", 0, i) + 1
        col = i - (self.s.rfind("\n", 0, i) + 1) + 1
        return line, col

    def fail(self, msg):
        line, col = self.where()
        raise SceneError(f"{self.path}:{line}:{col}: {msg}")

    def skip_ws(self, newlines=True):
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c == ";":
                while self.i < len(s) and s[self.i] != "\n":
                    self.i += 1
            elif c in " \t\r" or (newlines and c == "\n"):
                self.i += 1
            else:
                break

    def peek(self):
        self.skip_ws()
        return self.s[self.i] if self.i < len(self.s) else ""

    def expect(self, c):
        if self.peek() != c:
            self.fail(f"expected '{c}', got '{self.peek() or 'end of file'}'")
        self.i += 1

    def string(self):
        self.expect('"')
        out, s = [], self.s
        while True:
            if self.i >= len(s):
                self.fail("unterminated string")
            c = s[self.i]
            self.i += 1
            if c == '"':
                return "".join(out)
            if c != "\\":
                out.append(c)
                continue
            e = s[self.i:self.i + 1]
            self.i += 1
            simple = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "a": "\a",
                      "v": "\v", "\\": "\\", '"': '"', "'": "'", "/": "/"}
            if e in simple:
                out.append(simple[e])
            elif e in ("u", "U"):
                n = 4 if e == "u" else 6
                h = s[self.i:self.i + n]
                if not re.fullmatch(r"[0-9a-fA-F]{%d}" % n, h):
                    self.fail("bad \\%s escape" % e)
                self.i += n
                cp = int(h, 16)
                if 0xD800 <= cp < 0xDC00 and s[self.i:self.i + 2] == "\\u":
                    lo = int(s[self.i + 2:self.i + 6], 16)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
                    self.i += 6
                out.append(chr(cp))
            else:
                out.append(e)

    def ident(self):
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(self.s, self.i)
        if not m:
            self.fail(f"unexpected '{self.s[self.i:self.i + 1] or 'end of file'}'")
        self.i = m.end()
        return m.group()

    def value(self, doc=None):
        c = self.peek()
        if c == '"':
            return self.string()
        if c in "&^" and self.s[self.i + 1:self.i + 2] == '"':
            self.i += 1
            return self.string()
        if c == "[":
            return self.seq("[", "]", doc)
        if c == "{":
            return self.dictionary(doc)
        m = re.compile(r"[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)").match(self.s, self.i)
        if m and (c.isdigit() or c in "-+."):
            self.i = m.end()
            t = m.group()
            return float(t) if any(ch in t for ch in ".eE") else int(t)
        if c == "-" and self.s.startswith("-inf", self.i):
            self.i += 4
            return -math.inf
        start = self.i
        name = self.ident()
        if name in ("true", "false"):
            return name == "true"
        if name == "null":
            return None
        if name in ("inf", "inf_neg", "nan"):
            return {"inf": math.inf, "inf_neg": -math.inf, "nan": math.nan}[name]
        if self.peek() == "[":  # typed Array[int]([...]) / Dictionary[K, V]({...})
            self.i += 1
            while self.peek() != "]":
                self.i += 1
            self.i += 1
        if self.peek() != "(":
            self.i = start
            self.fail(f"unknown value '{name}'")
        self.i += 1
        if name == "Object":
            return self.object_args()
        args = []
        while self.peek() != ")":
            args.append(self.value(doc))
            if self.peek() == ",":
                self.i += 1
            elif self.peek() != ")":
                self.fail("expected ',' or ')'")
        self.i += 1
        if name in ("SubResource", "ExtResource"):
            return Ref(name, args[0] if args else None, doc, self.where(start)[0])
        if name in ("Array", "Dictionary"):
            return args[0] if args else ([] if name == "Array" else {})
        return Ctor(name, args)

    def object_args(self):
        cls = self.ident()
        props = {}
        while self.peek() == ",":
            self.i += 1
            if self.peek() == ")":
                break
            k = self.string()
            self.expect(":")
            props[k] = self.value()
        self.expect(")")
        return Ctor("Object", [cls, props])

    def seq(self, a, b, doc):
        self.expect(a)
        out = []
        while self.peek() != b:
            out.append(self.value(doc))
            if self.peek() == ",":
                self.i += 1
            elif self.peek() != b:
                self.fail(f"expected ',' or '{b}'")
        self.i += 1
        return out

    def dictionary(self, doc):
        self.expect("{")
        out = {}
        while self.peek() != "}":
            k = self.value(doc)
            self.expect(":")
            v = self.value(doc)
            out[k if not isinstance(k, list) else repr(k)] = v
            if self.peek() == ",":
                self.i += 1
            elif self.peek() != "}":
                self.fail("expected ',' or '}'")
        self.i += 1
        return out

    def sections(self, doc):
        """[(tag, attrs, [(key, value, line)], line)]; properties before any header form a
        section with tag None (project.godot)."""
        out = [(None, {}, [], 1)]
        while True:
            c = self.peek()
            if not c:
                return out
            if c == "[":
                line = self.where()[0]
                self.i += 1
                self.skip_ws()
                tag = self.ident()
                attrs = {}
                while self.peek() != "]":
                    k = self.ident()
                    self.expect("=")
                    attrs[k] = self.value(doc)
                self.i += 1
                out.append((tag, attrs, [], line))
                continue
            line = self.where()[0]
            if c == '"':
                key = self.string()
            else:
                m = re.compile(r"[^=\n]+").match(self.s, self.i)
                if not m:
                    self.fail("expected a property")
                key = m.group().strip()
                self.i = m.end()
            self.expect("=")
            out[-1][2].append((key, self.value(doc), line))
