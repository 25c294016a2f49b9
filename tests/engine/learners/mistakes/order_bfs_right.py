import math


class Value:
    """A scalar value with automatic gradient tracking."""

    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')
        def _backward():
            self.grad += out.grad      # d(a+b)/da = 1
            other.grad += out.grad     # d(a+b)/db = 1
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad += other.data * out.grad   # d(a*b)/da = b
            other.grad += self.data * out.grad   # d(a*b)/db = a
        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only int/float powers supported"
        out = Value(self.data ** other, (self,), f'**{other}')
        def _backward():
            self.grad += other * (self.data ** (other - 1)) * out.grad
        out._backward = _backward
        return out

    def relu(self):
        out = Value(max(0, self.data), (self,), 'ReLU')
        def _backward():
            self.grad += (self.data > 0) * out.grad
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), 'tanh')
        def _backward():
            self.grad += (1 - t**2) * out.grad  # d(tanh x)/dx = 1 - tanh^2(x)
        out._backward = _backward
        return out

    def backward(self):
        """Compute gradients via reverse-mode AD (backpropagation)."""
        # Build topological order
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        # Seed the output gradient
        self.grad = 1.0

        # Traverse in reverse topological order
        for v in reversed(topo):
            v._backward()

    # Convenience operations (built from primitives)
    def __neg__(self):        return self * -1
    def __sub__(self, other): return self + (-other)
    def __radd__(self, other): return self + other
    def __rmul__(self, other): return self * other

    def __repr__(self):
        return f"Value(data={self.data:.4f}, grad={self.grad:.4f})"

# f(x, y) = (x + y) + ((x + y) * x)^2
x = Value(2.0)
y = Value(3.0)
r = x + y
p = r * x
q = p ** 2
z = r + q
z.backward()

print(f"z = {z}")
print(f"dz/dx = {x.grad:.4f}  (expected: 1 + 2px + 2pr = 141)")
print(f"dz/dy = {y.grad:.4f}  (expected: 1 + 2px = 41)")
