"""The few Structured Field forms (RFC 8941) the client reads: lists and dictionaries whose
members are strings, byte sequences or inner lists of strings, each with parameters."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from typing import Dict, List, Tuple, Union

BareItem = Union[int, float, str, bytes, bool]


class StructuredFieldError(ValueError):
    """The field is not a Structured Field of the expected form."""


@dataclass
class Member:
    """A list or dictionary member: an item or an inner list, its parameters, its text as sent."""

    value: Union[BareItem, List[Tuple[BareItem, Dict[str, BareItem]]]]
    params: Dict[str, BareItem] = field(default_factory=dict)
    text: str = ""


_TOKEN = re.compile(r"[A-Za-z*][A-Za-z0-9:/!#$%&'*+\-.^_`|~]*")
_KEY = re.compile(r"[a-z*][a-z0-9_\-.*]*")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text.strip(" ")
        self.at = 0

    def fail(self, what: str) -> StructuredFieldError:
        return StructuredFieldError(f"expected {what} at character {self.at} of {self.text!r}")

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def spaces(self, tabs: bool = False) -> None:
        while self.peek() == " " or (tabs and self.peek() == "\t"):
            self.at += 1

    def key(self) -> str:
        m = _KEY.match(self.text, self.at)
        if not m:
            raise self.fail("a key")
        self.at = m.end()
        return m.group()

    def bare_item(self) -> BareItem:
        c = self.peek()
        if c == '"':
            self.at += 1
            out = []
            while True:
                c = self.peek()
                if not c:
                    raise self.fail("a closing quote")
                self.at += 1
                if c == "\\":
                    nxt = self.peek()
                    if nxt not in ('"', "\\"):
                        raise self.fail('\\" or \\\\')
                    out.append(nxt)
                    self.at += 1
                elif c == '"':
                    return "".join(out)
                elif not (" " <= c <= "~"):
                    raise self.fail("a printable ASCII character")
                else:
                    out.append(c)
        if c == ":":
            end = self.text.find(":", self.at + 1)
            if end < 0:
                raise self.fail("the end of a byte sequence")
            raw = self.text[self.at + 1 : end]
            self.at = end + 1
            try:
                return base64.b64decode(raw, validate=True)
            except ValueError as err:
                raise self.fail("base64") from err
        if c == "?":
            value = self.text[self.at + 1 : self.at + 2]
            if value not in ("0", "1"):
                raise self.fail("?0 or ?1")
            self.at += 2
            return value == "1"
        m = _NUMBER.match(self.text, self.at)
        if m:
            self.at = m.end()
            return float(m.group()) if "." in m.group() else int(m.group())
        m = _TOKEN.match(self.text, self.at)
        if m:
            self.at = m.end()
            return m.group()
        raise self.fail("an item")

    def params(self) -> Dict[str, BareItem]:
        out: Dict[str, BareItem] = {}
        while self.peek() == ";":
            self.at += 1
            self.spaces()
            name = self.key()
            value: BareItem = True
            if self.peek() == "=":
                self.at += 1
                value = self.bare_item()
            out[name] = value
        return out

    def member(self) -> Member:
        start = self.at
        if self.peek() == "(":
            self.at += 1
            items: List[Tuple[BareItem, Dict[str, BareItem]]] = []
            while True:
                self.spaces()
                if self.peek() == ")":
                    self.at += 1
                    break
                item = self.bare_item()
                items.append((item, self.params()))
                if self.peek() not in (" ", ")"):
                    raise self.fail("a space or )")
            params = self.params()
            return Member(items, params, self.text[start : self.at])
        item = self.bare_item()
        params = self.params()
        return Member(item, params, self.text[start : self.at])

    def next_member(self) -> bool:
        self.spaces(tabs=True)
        if self.at >= len(self.text):
            return False
        if self.peek() != ",":
            raise self.fail("a comma")
        self.at += 1
        self.spaces(tabs=True)
        if self.at >= len(self.text):
            raise self.fail("a member after the comma")
        return True


def parse_list(text: str) -> List[Member]:
    p = _Parser(text)
    out: List[Member] = []
    if not p.text:
        return out
    while True:
        out.append(p.member())
        if not p.next_member():
            return out


def parse_dictionary(text: str) -> Dict[str, Member]:
    """Members by key; a key without a value is the boolean true."""
    p = _Parser(text)
    out: Dict[str, Member] = {}
    if not p.text:
        return out
    while True:
        name = p.key()
        if p.peek() == "=":
            p.at += 1
            out[name] = p.member()
        else:
            out[name] = Member(True, p.params(), "")
        if not p.next_member():
            return out
