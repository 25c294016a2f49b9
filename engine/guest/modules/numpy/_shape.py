"""Shapes: sizes, strides, broadcasting and axes, on flat C-order lists."""

__name__ = "numpy"  # so that reprs and errors name the module the program imported


class AxisError(ValueError, IndexError):
    """numpy.exceptions.AxisError: an axis out of range is both a ValueError and an IndexError."""

    __module__ = "numpy.exceptions"


def prod(shape):
    size = 1
    for n in shape:
        size *= n
    return size


def strides(shape):
    """The step, in elements, of each axis of a C-order array."""
    out = []
    step = 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def fmt(shape):
    """A shape as numpy's messages write it: (2,3), (3,)."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def is_integer(value):
    """Whether numpy takes ``value`` as one integer (a 0-d array does, a 1-d one does not)."""
    return hasattr(value, "__index__") and not getattr(value, "ndim", 0)


def as_shape(shape):
    """A shape argument (an int or a sequence of ints) as a tuple."""
    if is_integer(shape):
        shape = (shape,)
    shape = tuple(n.__index__() for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def axis_index(axis, ndim):
    """A possibly negative axis as an index into the shape, numpy's AxisError if out of range."""
    axis = axis.__index__()
    if not -ndim <= axis < ndim:
        raise AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim if ndim else 0


def broadcast_shapes(*shapes):
    """The shape that numpy broadcasts the operands' shapes to, or numpy's error."""
    ndim = max(len(shape) for shape in shapes)
    out = []
    for axis in range(-ndim, 0):
        size = 1
        for shape in shapes:
            n = shape[axis] if -axis <= len(shape) else 1
            if n != 1:
                if size not in (1, n):
                    names = "".join(fmt(shape) + " " for shape in shapes)
                    raise ValueError(
                        f"operands could not be broadcast together with shapes {names}"
                    )
                size = n
        out.append(size)
    return tuple(out)


def broadcast_to(data, shape, target):
    """The flat data of an array of ``shape`` repeated along its unit axes to ``target``."""
    if shape == target:
        return data
    if len(data) == 1:
        return data * prod(target)
    shape = (1,) * (len(target) - len(shape)) + tuple(shape)
    out = data
    block = 1  # the size of one item along the axis being repeated, already broadcast
    for axis in range(len(target) - 1, -1, -1):
        times = target[axis]
        if shape[axis] == 1 and times != 1:
            if block == 1:
                out = [value for value in out for _ in range(times)]
            else:
                out = [
                    value
                    for start in range(0, len(out), block)
                    for value in out[start : start + block] * times
                ]
        block *= times
    return out


def fits(shape, target):
    """Whether values of ``shape`` broadcast into ``target`` (leading unit axes may go)."""
    while len(shape) > len(target) and shape[0] == 1:
        shape = shape[1:]
    if len(shape) > len(target):
        return False
    return all(n in (1, t) for n, t in zip(reversed(shape), reversed(target), strict=False))


def lanes(shape, axis):
    """(outer, n, inner): the array as ``outer`` blocks of ``n`` steps of ``inner`` values."""
    return prod(shape[:axis]), shape[axis], prod(shape[axis + 1 :])


def gather(data, shape, axis, index):
    """The flat data of the array with ``axis`` replaced by the items ``index`` picks."""
    outer, n, inner = lanes(shape, axis)
    out = []
    for block in range(outer):
        base = block * n * inner
        for i in index:
            start = base + i * inner
            out.extend(data[start : start + inner])
    return out


def transpose(data, shape, axes):
    """The flat data and shape of the array with its axes permuted."""
    steps = strides(shape)
    offsets = [0]
    for axis in axes:
        step = steps[axis]
        offsets = [offset + i * step for offset in offsets for i in range(shape[axis])]
    return [data[offset] for offset in offsets], tuple(shape[axis] for axis in axes)


def reshape(size, shape):
    """A reshape target with its -1 filled in, or numpy's error."""
    shape = tuple(n.__index__() for n in shape)
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in shape:
        known = prod(n for n in shape if n != -1)
        if known and size % known == 0:
            shape = tuple(size // known if n == -1 else n for n in shape)
    if prod(shape) != size or any(n < 0 for n in shape):
        wanted = fmt(shape).replace("-1", "newaxis")
        raise ValueError(f"cannot reshape array of size {size} into shape {wanted}")
    return shape
