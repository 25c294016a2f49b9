import math

class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None  # function that computes local gradients
        self._prev = set(_children)
        self._op = _op

    def __repr__(self):
        return f"Value(data={self.data:.4f}, grad={self.grad:.4f})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad     # d(a+b)/da = 1
            other.grad += out.grad    # d(a+b)/db = 1
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad   # d(a*b)/da = b
        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float))
        out = Value(self.data ** other, (self,), f'**{other}')

        def _backward():
            self.grad += other * (self.data ** (other - 1)) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        """Backprop through the entire computation graph."""
        # Topological sort — process children before parents
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        self.grad = 1.0  # dL/dL = 1
        for v in reversed(topo):
            v._backward()

    # Make operations work both ways: 2 * Value and Value * 2
    def __radd__(self, other): return self + other
    def __rmul__(self, other): return self * other
    def __neg__(self): return self * -1
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return (-self) + other

# f(a, b) = a * b + b^2
a = Value(2.0)
b = Value(3.0)
c = a * b      # 6.0
d = b ** 2     # 9.0
e = c + d      # 15.0

e.backward()
print(f"e = {e}")         # 15.0
print(f"de/da = {a.grad}")  # b = 3.0
print(f"de/db = {b.grad}")  # a + 2b = 2 + 6 = 8.0
