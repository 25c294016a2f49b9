"""str() and repr() of arrays, byte for byte as numpy 2 prints them: a port of the parts of
numpy/_core/arrayprint.py that print float64, int64, bool and object arrays.

numpy formats floats with Dragon4. Its digits are the exact binary value rounded (half to even)
to the number of digits asked for, except in "unique" mode, where they are the shortest digits
that read back as the same float; Python's repr() gives those shortest digits and its '%.Nf' and
'%.Ne' formats the correctly rounded ones, so Dragon4 is: the shortest digits if their count is
within the bounds asked for, the correctly rounded digits at the bound otherwise.
"""

import math

from . import _array, _shape
from ._dtypes import wrap

__name__ = "numpy"  # so that reprs and errors name the module the program imported

_DEFAULTS = {
    "edgeitems": 3,
    "threshold": 1000,
    "floatmode": "maxprec",
    "precision": 8,
    "suppress": False,
    "linewidth": 75,
    "nanstr": "nan",
    "infstr": "inf",
    "sign": "-",
    "formatter": None,
}
_options = dict(_DEFAULTS)


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    suppress=None,
    nanstr=None,
    infstr=None,
    formatter=None,
    sign=None,
    floatmode=None,
):
    """numpy.set_printoptions for the options this stand-in prints with."""
    if floatmode not in (None, "fixed", "unique", "maxprec", "maxprec_equal"):
        raise ValueError(
            'floatmode option must be one of "fixed", "unique", "maxprec", "maxprec_equal"'
        )
    if sign not in (None, "-", "+", " "):
        raise ValueError("sign option must be one of ' ', '+', or '-'")
    given = {
        "precision": precision,
        "threshold": threshold,
        "edgeitems": edgeitems,
        "linewidth": linewidth,
        "suppress": None if suppress is None else bool(suppress),
        "nanstr": nanstr,
        "infstr": infstr,
        "sign": sign,
        "floatmode": floatmode,
    }
    _options.update((key, value) for key, value in given.items() if value is not None)
    _options["formatter"] = formatter


def get_printoptions():
    return dict(_options)


class printoptions:
    """``with np.printoptions(precision=3):`` the options set inside, the old ones after."""

    def __init__(self, **options):
        self._new = options
        self._old = None

    def __enter__(self):
        self._old = get_printoptions()
        set_printoptions(**self._new)
        return get_printoptions()

    def __exit__(self, *exc):
        _options.clear()
        _options.update(self._old)


# Dragon4, by way of Python's float formatting


def _parse(text):
    """(digits, exponent) of a decimal numeral: the value is d.ddd * 10**exponent, without
    leading or trailing zeros in the digits ('0' and 0 for zero)."""
    mantissa, _, power = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    exponent = int(power or 0) + len(whole) - 1 - (len(whole) + len(fraction) - len(digits))
    digits = digits.rstrip("0")
    return (digits, exponent) if digits else ("0", 0)


def _dragon4(x, scientific, precision, min_digits, unique):
    """The digits and exponent numpy's Dragon4 gives |x|, with ``precision`` and ``min_digits``
    counting digits after the point (of the mantissa, when scientific)."""
    fixed = "%.*e" if scientific else "%.*f"
    if not unique:
        return _parse(fixed % (precision, x))
    digits, exponent = _parse(repr(x))
    after = len(digits) - 1 if scientific else max(0, len(digits) - 1 - exponent)
    if precision is not None and precision >= 0 and after > precision:
        return _parse(fixed % (precision, x))
    if min_digits is not None and min_digits > after:
        return _parse(fixed % (min_digits, x))
    return digits, exponent


def _finish(whole, fraction, trim, wanted):
    """The trim modes: 'k' keeps (and pads) zeros, '.' keeps the point, '0' keeps one zero
    after it, '-' drops a bare point."""
    if trim == "k" and wanted > len(fraction):
        fraction += "0" * (wanted - len(fraction))
    elif trim == "0" and not fraction:
        fraction = "0"
    if trim == "-" and not fraction:
        return whole, fraction, ""
    return whole, fraction, "."


def format_positional(
    x,
    precision=None,
    unique=True,
    trim="k",
    sign=False,
    pad_left=None,
    pad_right=None,
    min_digits=None,
):
    """numpy.format_float_positional (fractional=True) of a finite float."""
    if not math.isfinite(x):
        return ("+" if sign and x > 0 else "") + repr(x)
    negative = math.copysign(1.0, x) < 0
    digits, exponent = _dragon4(abs(x), False, precision, min_digits, unique)
    if exponent >= 0:
        whole = digits[: exponent + 1].ljust(exponent + 1, "0")
        fraction = digits[exponent + 1 :]
    else:
        whole, fraction = "0", "0" * (-exponent - 1) + digits
    wanted = (min_digits if unique else precision) or 0
    whole, fraction, point = _finish(whole, fraction, trim, wanted)
    mark = "-" if negative else "+" if sign else ""
    text = mark + whole + point + fraction
    if pad_right is not None and pad_right >= len(fraction):
        text += " " * (pad_right - len(fraction) + (not point))
    if pad_left is not None and pad_left > len(whole) + len(mark):
        text = " " * (pad_left - len(whole) - len(mark)) + text
    return text


def format_scientific(
    x,
    precision=None,
    unique=True,
    trim="k",
    sign=False,
    pad_left=None,
    exp_digits=None,
    min_digits=None,
):
    """numpy.format_float_scientific of a finite float."""
    if not math.isfinite(x):
        return ("+" if sign and x > 0 else "") + repr(x)
    negative = math.copysign(1.0, x) < 0
    digits, exponent = _dragon4(abs(x), True, precision, min_digits, unique)
    wanted = (min_digits if unique else precision) or 0
    whole, fraction, point = _finish(digits[0], digits[1:], trim, wanted)
    mark = "-" if negative else "+" if sign else ""
    power = str(abs(exponent)).rjust(2 if exp_digits is None or exp_digits < 0 else exp_digits, "0")
    text = f"{mark}{whole}{point}{fraction}e{'-' if exponent < 0 else '+'}{power}"
    if pad_left is not None and pad_left > 1 + len(mark):
        text = " " * (pad_left - 1 - len(mark)) + text
    return text


# the element formatters of arrayprint.py


class FloatingFormat:
    """Chooses, from all the values shown, between positional and scientific notation and the
    widths that align them; then formats each value."""

    def __init__(self, values, options):
        floatmode = options["floatmode"]
        self.floatmode = floatmode
        self.precision = None if floatmode == "unique" else options["precision"]
        self.sign = options["sign"]
        self.nanstr, self.infstr = options["nanstr"], options["infstr"]
        finite = [x for x in values if math.isfinite(x)]
        magnitudes = [abs(x) for x in finite if x != 0]
        self.exp_format = False
        if magnitudes:
            largest, smallest = max(magnitudes), min(magnitudes)
            if largest >= 1e8 or (
                not options["suppress"] and (smallest < 0.0001 or largest / smallest > 1000.0)
            ):
                self.exp_format = True
        self._fill(finite)
        if self.sign == " " and not any(math.copysign(1.0, x) < 0 for x in finite):
            self.pad_left += 1
        if len(finite) != len(values):
            negative_inf = self.sign != "-" or any(x < 0 for x in values if math.isinf(x))
            offset = self.pad_right + 1
            self.pad_left = max(
                self.pad_left,
                len(self.nanstr) - offset,
                len(self.infstr) + negative_inf - offset,
            )

    def _fill(self, finite):
        plus = self.sign == "+"
        trim, unique = ("k", False) if self.floatmode == "fixed" else (".", True)
        self.unique = unique
        if not finite:
            self.pad_left = self.pad_right = 0
            self.trim, self.exp_size, self.unique, self.min_digits = ".", -1, True, None
        elif self.exp_format:
            texts = [format_scientific(x, self.precision, unique, trim, plus) for x in finite]
            mantissas = [text.partition("e")[0].split(".") for text in texts]
            self.exp_size = max(len(text.partition("e")[2]) for text in texts) - 1
            self.trim = "k"
            self.precision = self.min_digits = max(len(fraction) for _, fraction in mantissas)
            self.pad_left = max(len(whole) for whole, _ in mantissas)
            self.pad_right = self.exp_size + 2 + self.precision
        else:
            texts = [format_positional(x, self.precision, unique, trim, plus) for x in finite]
            parts = [text.split(".") for text in texts]
            self.pad_left = max(len(whole) for whole, _ in parts)
            self.pad_right = max(len(fraction) for _, fraction in parts)
            self.exp_size = -1
            if self.floatmode in ("fixed", "maxprec_equal"):
                self.precision = self.min_digits = self.pad_right
                self.trim = "k"
            else:
                self.trim, self.min_digits = ".", 0

    def __call__(self, x):
        if not math.isfinite(x):
            if x != x:
                text = ("+" if self.sign == "+" else "") + self.nanstr
            else:
                text = ("-" if x < 0 else "+" if self.sign == "+" else "") + self.infstr
            return " " * (self.pad_left + self.pad_right + 1 - len(text)) + text
        plus = self.sign == "+"
        if self.exp_format:
            return format_scientific(
                x,
                self.precision,
                self.unique,
                self.trim,
                plus,
                self.pad_left,
                self.exp_size,
                self.min_digits,
            )
        return format_positional(
            x,
            self.precision,
            self.unique,
            self.trim,
            plus,
            self.pad_left,
            self.pad_right,
            self.min_digits,
        )


class IntegerFormat:
    def __init__(self, values, sign="-"):
        if values:
            largest, smallest = max(values), min(values)
            width = len(str(largest))
            if sign == " " and smallest < 0:
                sign = "-"
            if largest >= 0 and sign in "+ ":
                width += 1
            width = max(width, len(str(smallest)))
        else:
            width = 0
        self.format = f"{{:{sign}{width}d}}"

    def __call__(self, x):
        return self.format.format(x)


class BoolFormat:
    def __init__(self, shape):
        # " True" lines up with "False", except in a 0-d array
        self.true = " True" if shape else "True"

    def __call__(self, x):
        return self.true if x else "False"


def _object_format(x):
    return f"list({x!r})" if type(x) is list else repr(x)


_FORMATTER_KEYS = {"b": ("bool",), "i": ("int", "int_kind"), "f": ("float", "float_kind")}


def _format_function(kind, values, shape, options):
    formatter = options["formatter"] or {}
    for key in (*_FORMATTER_KEYS.get(kind, ("object",)), "all"):
        if formatter.get(key) is not None:
            custom = formatter[key]
            return lambda x: custom(wrap(kind, x))
    if kind == "f":
        return FloatingFormat(values, options)
    if kind == "i":
        return IntegerFormat(values, options["sign"])
    if kind == "b":
        return BoolFormat(shape)
    return _object_format


# laying the elements out


def _leading_trailing(data, shape, edgeitems):
    """The values numpy formats when it summarises: the first and last items of each axis."""
    offsets = [0]
    for n, step in zip(shape, _shape.strides(shape), strict=True):
        picked = range(n) if n <= 2 * edgeitems else [*range(edgeitems), *range(n - edgeitems, n)]
        offsets = [offset + i * step for offset in offsets for i in picked]
    return [data[offset] for offset in offsets]


def _extend_line(s, line, word, line_width, next_line_prefix):
    needs_wrap = len(line) + len(word) > line_width and len(line) > len(next_line_prefix)
    if needs_wrap:
        s += line.rstrip() + "\n"
        line = next_line_prefix
    return s, line + word


def _extend_line_pretty(s, line, word, line_width, next_line_prefix):
    """_extend_line for words of several lines (the reprs of some objects)."""
    words = word.splitlines()
    if len(words) == 1:
        return _extend_line(s, line, word, line_width, next_line_prefix)
    max_word_length = max(len(w) for w in words)
    if len(line) + max_word_length > line_width and len(line) > len(next_line_prefix):
        s += line.rstrip() + "\n"
        line = next_line_prefix + words[0]
        indent = next_line_prefix
    else:
        indent = len(line) * " "
        line += words[0]
    for w in words[1:]:
        s += line.rstrip() + "\n"
        line = indent + w
    line += (max_word_length - len(words[-1])) * " "
    return s, line


def _format_array(data, shape, format_function, line_width, prefix, separator, edgeitems, summary):
    """numpy's _formatArray: rows wrapped at the line width, blank lines between blocks."""
    steps = _shape.strides(shape)

    def recurse(offset, axis, hanging_indent, width):
        axes_left = len(shape) - axis
        if axes_left == 0:
            return format_function(data[offset])
        next_indent = hanging_indent + " "
        next_width = width - 1
        n, step = shape[axis], steps[axis]
        if summary and 2 * edgeitems < n:
            leading, trailing = edgeitems, edgeitems
        else:
            leading, trailing = 0, n
        items = [*range(leading), *range(n - trailing, n)]

        def nested(i):
            return recurse(offset + i * step, axis + 1, next_indent, next_width)

        s = ""
        if axes_left == 1:
            elem_width = width - max(len(separator.rstrip()), 1)
            line = hanging_indent
            for position, i in enumerate(items):
                if position == leading and leading:
                    s, line = _extend_line(s, line, summary, elem_width, hanging_indent)
                    line += separator
                s, line = _extend_line_pretty(s, line, nested(i), elem_width, hanging_indent)
                if position < len(items) - 1:
                    line += separator
            s += line
        else:
            line_sep = separator.rstrip() + "\n" * (axes_left - 1)
            for position, i in enumerate(items):
                if position == leading and leading:
                    s += hanging_indent + summary + line_sep
                s += hanging_indent + nested(i) + (line_sep if position < len(items) - 1 else "")
        return "[" + s[len(hanging_indent) :] + "]"

    return recurse(0, 0, prefix, line_width)


def array2string(
    a,
    max_line_width=None,
    precision=None,
    suppress_small=None,
    separator=" ",
    prefix="",
    *,
    formatter=None,
    threshold=None,
    edgeitems=None,
    sign=None,
    floatmode=None,
    suffix="",
):
    a = _array.asarray(a)
    options = dict(_options)
    given = {
        "linewidth": max_line_width,
        "precision": precision,
        "suppress": suppress_small,
        "formatter": formatter,
        "threshold": threshold,
        "edgeitems": edgeitems,
        "sign": sign,
        "floatmode": floatmode,
    }
    options.update((key, value) for key, value in given.items() if value is not None)
    options["linewidth"] -= len(suffix)
    data, shape, kind = a._data, a._shape, a._dtype.kind
    if not data:
        return "[]"
    summary = "..." if len(data) > options["threshold"] else ""
    shown = _leading_trailing(data, shape, options["edgeitems"]) if summary else data
    format_function = _format_function(kind, shown, shape, options)
    return _format_array(
        data,
        shape,
        format_function,
        options["linewidth"],
        " " + " " * len(prefix),
        separator,
        options["edgeitems"],
        summary,
    )


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    arr = _array.asarray(arr)
    if max_line_width is None:
        max_line_width = _options["linewidth"]
    prefix = "array("
    text = array2string(arr, max_line_width, precision, suppress_small, ", ", prefix, suffix=")")
    size, shape, dtype = len(arr._data), arr._shape, arr._dtype
    extras = []
    if (size == 0 and shape != (0,)) or size > _options["threshold"]:
        extras.append(f"shape={shape}")
    if dtype.kind == "O" or size == 0:
        extras.append(f"dtype={dtype.name}")
    if not extras:
        return prefix + text + ")"
    text = prefix + text + ","
    extra = ", ".join(extras) + ")"
    last_line = len(text) - (text.rfind("\n") + 1)
    spacer = "\n" + " " * len(prefix) if last_line + len(extra) + 1 > max_line_width else " "
    return text + spacer + extra


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    a = _array.asarray(a)
    if not a._shape:
        value = wrap(a._dtype.kind, a._data[0])
        return repr(value) if isinstance(value, bytes) else str(value)
    return array2string(a, max_line_width, precision, suppress_small, " ", "")
