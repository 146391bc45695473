#!/usr/bin/env python3
"""make_man3.py: libkifu(3) from include/kifu.h, so the page says what the header says.

usage: make_man3.py kifu.h VERSION > libkifu.3

The header's first comment becomes DESCRIPTION; each banner (a `/* ---- */` line followed
by `/* Title */`) a section; every declaration or type is printed as code with the
comment that precedes it as its text."""
import re
import sys


def roff_text(s):
    out = []
    for line in s.split("\n"):
        line = line.replace("\\", "\\e")
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def comment_body(block):
    """The text of a comment, its lines as written, less the `*` margin and the common
    indentation (the header indents continuation lines by one or two spaces)."""
    text = re.sub(r"^\s*/\*\*?", "", block)
    text = re.sub(r"\*/\s*$", "", text)
    lines = [re.sub(r"^\s*\*(?=\s|$)", "", l).rstrip() for l in text.split("\n")]
    lines = [l for l in lines]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return ""
    first = lines[0].lstrip()
    tail = [l for l in lines[1:] if l.strip()]
    cut = min((len(l) - len(l.lstrip()) for l in tail), default=0)
    return "\n".join([first] + [l[cut:] for l in lines[1:]])


def main():
    path, version = sys.argv[1], sys.argv[2]
    src = open(path, encoding="utf-8").read()
    first = re.match(r"\s*/\*(.*?)\*/", src, re.S)
    rest = src[first.end():]
    print('.\\" -*- coding: UTF-8 -*-')
    print('.\\" Generated from include/kifu.h by man/make_man3.py: edit the header, not this.')
    print(f'.TH LIBKIFU 3 "" "kifu {version}" "Library Functions Manual"')
    print(".SH NAME\nlibkifu \\- shogi game records and rules engine (C library)")
    print(".SH SYNOPSIS\n.nf\n.B #include <kifu.h>\n.PP\n"
          "cc prog.c $(pkg\\-config \\-\\-cflags \\-\\-libs kifu)\n.fi")
    print(".SH DESCRIPTION")
    print(".nf\n" + roff_text(comment_body("/*" + first.group(1) + "*/")) + "\n.fi")
    # Walk the rest: comments, banners, declarations.
    tokens = re.finditer(
        r"(?P<comment>/\*.*?\*/)|(?P<ext>extern \"C\" \{)|(?P<pp>^#[^\n]*(?:\\\n[^\n]*)*)|(?P<decl>[^\s/#][^;{]*(?:\{.*?\}[^;]*)?;)",
        rest, re.S | re.M)
    pending = None
    banner = False
    for m in tokens:
        if m.group("comment"):
            body = comment_body(m.group("comment"))
            if re.fullmatch(r"-+", body):
                banner = True
                pending = None
                continue
            if banner:
                print(f".SH {roff_text(body.upper())}")
                banner = False
                continue
            pending = body if pending is None else pending + "\n" + body
        elif m.group("ext"):
            pending = None
        elif m.group("pp"):
            line = m.group("pp")
            if line.startswith("#define KIFU_") and "EXPORT" not in line and "_H" not in line:
                print(".PP\n.nf\n" + roff_text(line) + "\n.fi")
                if pending:
                    print(".RS\n.nf\n" + roff_text(pending) + "\n.fi\n.RE")
            pending = None
        else:
            decl = m.group("decl").strip()
            if decl.startswith(('extern "C"', "}")) or decl == ";":
                pending = None
                continue
            decl = decl.replace("KIFU_EXPORT ", "")
            decl = re.sub(r"\s*\n\s*", " ", decl) if "{" not in decl else decl
            print(".PP\n.nf\n.ft B\n" + roff_text(decl) + "\n.ft R\n.fi")
            if pending:
                print(".RS\n.nf\n" + roff_text(pending) + "\n.fi\n.RE")
            pending = None
    # The documents this page names as docs/NAME.md are installed; the install writes the
    # prefix's directory over the default one, as for kifu(1).
    print(".SH FILES\n.TP\n.I /usr/local/share/doc/kifu/\n"
          "the documents of the source tree's\n.IR docs/ :\n"
          "what this page names as\n.I docs/NAME.md\nis\n.I NAME.md\nthere;\n"
          ".I library.md\nmaps the library, with a first program.")
    print(".SH \"SEE ALSO\"\n.BR kifu (1),\n.BR pkg\\-config (1)")


main()
