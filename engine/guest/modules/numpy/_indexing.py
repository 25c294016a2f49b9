"""Indexing: which stored values ``a[key]`` picks, as flat offsets, and the shape they make.

Basic indexing (integers, slices, ``...``, ``None``) and advanced indexing (integer arrays and
lists, boolean masks) follow numpy's rules, including where the advanced dimensions go: in
place of the indexed axes when those are next to each other, first otherwise.
"""

from . import _array, _shape
from ._dtypes import bool_

__name__ = "numpy"  # so that reprs and errors name the module the program imported

_VALID = (
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices"
)
_ADVANCED = object()  # where an advanced index stands among the output parts


def _entry(item):
    """A key item as (tag, value, axes it consumes)."""
    if item is None:
        return "new", None, 0
    if item is Ellipsis:
        return "ellipsis", None, 0
    if isinstance(item, slice):
        return "slice", item, 1
    if isinstance(item, (_array.ndarray, list, tuple, range)):
        index = _array.asarray(item)
        kind = index._dtype.kind
        if kind == "i" and not index._shape:  # a 0-d integer array is an integer
            return "int", index._data[0], 1
        if kind == "b":
            if not index._shape:  # numpy's 0-d masks (a[True]) are not provided
                raise IndexError(_VALID)
            return "mask", index, len(index._shape)
        if kind == "i" or not index._data:
            return "array", index, 1
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if isinstance(item, (bool, bool_)) or not hasattr(item, "__index__"):
        raise IndexError(_VALID)
    return "int", item.__index__(), 1


def _checked(index, axis, size):
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {size}")
    return index % size if size else index


def locate(shape, key):
    """(flat offsets, result shape, whether the result is a scalar) for ``a[key]``."""
    entries = [_entry(item) for item in (key if isinstance(key, tuple) else (key,))]
    ndim = len(shape)
    used = sum(entry[2] for entry in entries)
    if used > ndim:
        raise IndexError(
            f"too many indices for array: array is {ndim}-dimensional, but {used} were indexed"
        )
    tags = [entry[0] for entry in entries]
    if tags.count("ellipsis") > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    fill = [("slice", slice(None), 1)] * (ndim - used)
    if "ellipsis" in tags:
        at = tags.index("ellipsis")
        entries[at : at + 1] = fill
    else:
        entries += fill
    advanced = any(tag in ("array", "mask") for tag in tags)
    steps = _shape.strides(shape)
    parts = []  # (dims, offsets) of each output part, in order
    indices = []  # (axis, flat index values, index shape) of the advanced indices
    axis = 0
    for tag, value, _ in entries:
        if tag == "new":
            parts.append(((1,), [0]))
        elif tag == "slice":
            picked = range(*value.indices(shape[axis]))
            parts.append(((len(picked),), [i * steps[axis] for i in picked]))
            axis += 1
        elif tag == "int" and not advanced:
            parts.append(((), [_checked(value, axis, shape[axis]) * steps[axis]]))
            axis += 1
        elif tag == "int":  # among advanced indices an integer is one more of them
            indices.append((axis, [value], ()))
            parts.append(_ADVANCED)
            axis += 1
        elif tag == "array":
            indices.append((axis, value._data, value._shape))
            parts.append(_ADVANCED)
            axis += 1
        else:  # a boolean mask: one advanced index per axis it covers
            mask_shape = value._shape
            for offset, n in enumerate(mask_shape):
                if shape[axis + offset] != n:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {axis + offset};"
                        f" size of axis is {shape[axis + offset]} but size of corresponding "
                        f"boolean axis is {n}"
                    )
            hits = [i for i, flag in enumerate(value._data) if flag]
            mask_steps = _shape.strides(mask_shape)
            for offset, n in enumerate(mask_shape):
                picked = [(i // mask_steps[offset]) % n for i in hits]
                indices.append((axis + offset, picked, (len(hits),)))
                parts.append(_ADVANCED)
            axis += len(mask_shape)
    if indices:
        parts = _place_advanced(parts, indices, shape, steps)
    offsets = [0]
    out_shape = ()
    for dims, part in parts:
        out_shape += dims
        if part != [0]:
            offsets = [offset + step for offset in offsets for step in part]
    scalar = not out_shape and not advanced and "ellipsis" not in tags
    return offsets, out_shape, scalar


def _place_advanced(parts, indices, shape, steps):
    """Broadcast the advanced indices together into one part, put where numpy puts it."""
    try:
        common = _shape.broadcast_shapes(*(index_shape for _, _, index_shape in indices))
    except ValueError:
        names = "".join(_shape.fmt(index_shape) + " " for _, _, index_shape in indices)
        raise IndexError(
            f"shape mismatch: indexing arrays could not be broadcast together with shapes {names}"
        ) from None
    offsets = [0] * _shape.prod(common)
    for axis, values, index_shape in indices:
        values = _shape.broadcast_to(values, index_shape, common)
        size, step = shape[axis], steps[axis]
        offsets = [
            offset + _checked(i, axis, size) * step
            for offset, i in zip(offsets, values, strict=True)
        ]
    where = [i for i, part in enumerate(parts) if part is _ADVANCED]
    rest = [part for part in parts if part is not _ADVANCED]
    at = where[0] if where[-1] - where[0] == len(where) - 1 else 0
    return [*rest[:at], (common, offsets), *rest[at:]]
