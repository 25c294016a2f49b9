import numpy as np
import matplotlib.pyplot as plt
import math

# Consistent style for all plots
plt.rcParams.update({
    'figure.dpi': 100,
    'font.size': 11,
    'axes.titlesize': 13,
    'axes.labelsize': 12
})

print("Imports loaded: numpy, matplotlib, math")

import math


class Value:
    """A scalar value with automatic gradient tracking.

    Each Value records how it was created (operation and inputs),
    enabling reverse-mode automatic differentiation via .backward().
    """

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

    def exp(self):
        out = Value(math.exp(self.data), (self,), 'exp')
        def _backward():
            self.grad += out.data * out.grad   # d(e^x)/dx = e^x
        out._backward = _backward
        return out

    def log(self):
        out = Value(math.log(self.data), (self,), 'log')
        def _backward():
            self.grad += (1.0 / self.data) * out.grad  # d(ln x)/dx = 1/x
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
    def __truediv__(self, other): return self * (other ** -1) if isinstance(other, Value) else self * (1.0 / other)
    def __radd__(self, other): return self + other
    def __rmul__(self, other): return self * other
    def __rsub__(self, other): return (-self) + other
    def __rtruediv__(self, other): return Value(other) * (self ** -1)

    def __repr__(self):
        return f"Value(data={self.data:.4f}, grad={self.grad:.4f})"


print("Value class defined successfully.")
print("Supported operations: +, -, *, /, **, relu, exp, log, tanh")
print("Call .backward() on the output to compute all gradients.")

# Test 1: f(x, y) = x*y + relu(x^2)
# df/dx = y + 2x (when x > 0), df/dy = x

x = Value(2.0)
y = Value(3.0)
z = x * y + (x * x).relu()  # x*y + relu(x^2) = 6 + 4 = 10
z.backward()

print("Test 1: f(x, y) = x*y + relu(x^2)")
print(f"  z = {z}")
print(f"  dz/dx = {x.grad:.4f}  (expected: y + 2x = 3 + 4 = 7.0)")
print(f"  dz/dy = {y.grad:.4f}  (expected: x = 2.0)")
print()

# Test 2: f(x) = exp(x) / (1 + exp(x))  [sigmoid]
# f'(x) = f(x) * (1 - f(x))
x2 = Value(1.5)
f2 = x2.exp() / (x2.exp() + 1)
f2.backward()

sigmoid_val = math.exp(1.5) / (1 + math.exp(1.5))
expected_grad = sigmoid_val * (1 - sigmoid_val)

print("Test 2: f(x) = exp(x) / (1 + exp(x))  [sigmoid]")
print(f"  f(1.5) = {f2.data:.6f}  (expected: {sigmoid_val:.6f})")
print(f"  f'(1.5) = {x2.grad:.6f}  (expected: {expected_grad:.6f})")
print()

# Test 3: f(x) = tanh(x)
# f'(x) = 1 - tanh^2(x)
x3 = Value(0.7)
f3 = x3.tanh()
f3.backward()

expected_tanh_grad = 1 - math.tanh(0.7)**2

print("Test 3: f(x) = tanh(x)")
print(f"  tanh(0.7) = {f3.data:.6f}  (expected: {math.tanh(0.7):.6f})")
print(f"  f'(0.7) = {x3.grad:.6f}  (expected: {expected_tanh_grad:.6f})")
print()

# Test 4: Verify against numerical gradient
def numerical_grad(f_func, x_val, h=1e-7):
    return (f_func(x_val + h) - f_func(x_val - h)) / (2 * h)

# f(x) = x^3 * log(x) + exp(-x)
x4 = Value(2.0)
f4 = x4**3 * x4.log() + (x4 * -1).exp()
f4.backward()

def f4_numpy(x):
    return x**3 * np.log(x) + np.exp(-x)

numerical = numerical_grad(f4_numpy, 2.0)

print("Test 4: f(x) = x^3 * log(x) + exp(-x)")
print(f"  Autograd derivative: {x4.grad:.10f}")
print(f"  Numerical derivative: {numerical:.10f}")
print(f"  Absolute error: {abs(x4.grad - numerical):.2e}")

import random


class Neuron:
    """A single neuron with weights, bias, and optional nonlinearity."""

    def __init__(self, n_in, nonlin=True):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(n_in)]
        self.b = Value(0.0)
        self.nonlin = nonlin

    def __call__(self, x):
        # w . x + b
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]


class Layer:
    """A layer of neurons."""

    def __init__(self, n_in, n_out, **kwargs):
        self.neurons = [Neuron(n_in, **kwargs) for _ in range(n_out)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP:
    """Multi-layer perceptron built from Value objects."""

    def __init__(self, n_in, n_outs):
        sz = [n_in] + n_outs
        self.layers = []
        for i in range(len(n_outs)):
            is_last = (i == len(n_outs) - 1)
            self.layers.append(Layer(sz[i], sz[i+1], nonlin=not is_last))

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


# Quick test
random.seed(42)
test_mlp = MLP(2, [4, 1])  # 2 inputs -> 4 hidden -> 1 output
test_out = test_mlp([Value(1.0), Value(2.0)])
print(f"MLP output: {test_out}")
print(f"Number of parameters: {len(test_mlp.parameters())}")
print(f"  Layer 1: {len(test_mlp.layers[0].parameters())} params (4 neurons x (2 weights + 1 bias))")
print(f"  Layer 2: {len(test_mlp.layers[1].parameters())} params (1 neuron x (4 weights + 1 bias))")

# Gradient verification: autograd vs numerical finite differences

random.seed(123)
model_check = MLP(2, [4, 1])
x_check = [0.5, -0.3]
y_target = 1.0

# Forward + backward to get autograd gradients
pred = model_check(x_check)
loss = (pred - y_target) ** 2
for p in model_check.parameters():
    p.grad = 0.0
loss.backward()

# Store autograd gradients
autograd_grads = [p.grad for p in model_check.parameters()]

# Numerical gradient checking
h = 1e-6
numerical_grads = []

for p in model_check.parameters():
    # f(theta + h)
    p.data += h
    pred_plus = model_check(x_check)
    loss_plus = (pred_plus - y_target) ** 2

    # f(theta - h)
    p.data -= 2 * h
    pred_minus = model_check(x_check)
    loss_minus = (pred_minus - y_target) ** 2

    # Restore
    p.data += h

    numerical_grads.append((loss_plus.data - loss_minus.data) / (2 * h))

# Compare
print("Gradient Verification: Autograd vs Numerical")
print("=" * 60)
print(f"{'Param':>6} {'Autograd':>14} {'Numerical':>14} {'Rel Error':>12}")
print("-" * 60)

max_error = 0
for i, (ag, ng) in enumerate(zip(autograd_grads, numerical_grads)):
    rel_err = abs(ag - ng) / (abs(ag) + abs(ng) + 1e-12)
    max_error = max(max_error, rel_err)
    print(f"{i:6d} {ag:14.8f} {ng:14.8f} {rel_err:12.2e}")

print("=" * 60)
print(f"Maximum relative error: {max_error:.2e}")
if max_error < 1e-4:
    print("GRADIENT CHECK PASSED")
else:
    print("GRADIENT CHECK FAILED")
