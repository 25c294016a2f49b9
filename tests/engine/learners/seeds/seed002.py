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

# Demonstrate the three approaches on f(x) = x^2 * sin(x)

def f(x):
    return x**2 * np.sin(x)

def f_symbolic_derivative(x):
    """Hand-derived symbolic derivative."""
    return 2*x*np.sin(x) + x**2*np.cos(x)

def f_numerical_derivative(x, h=1e-7):
    """Central finite difference."""
    return (f(x + h) - f(x - h)) / (2 * h)

# Compare all three at x = 2.0
x0 = 2.0
exact = f_symbolic_derivative(x0)
numerical = f_numerical_derivative(x0)

print("Comparing differentiation methods at x = 2.0")
print("for f(x) = x^2 * sin(x)")
print("=" * 50)
print(f"Symbolic (exact):   {exact:.15f}")
print(f"Numerical (h=1e-7): {numerical:.15f}")
print(f"Difference:         {abs(exact - numerical):.2e}")
print()

# Show numerical error as a function of h
h_values = np.logspace(-15, 0, 100)
errors = [abs(f_numerical_derivative(x0, h) - exact) for h in h_values]

fig, ax = plt.subplots(figsize=(10, 5))
ax.loglog(h_values, errors, linewidth=2, color='#E74C3C')
ax.axvline(1e-7, color='gray', linestyle='--', alpha=0.7, label='$h = 10^{-7}$')
ax.set_xlabel('Step size $h$', fontsize=12)
ax.set_ylabel('Absolute error $|f\'_{\\mathrm{numerical}} - f\'_{\\mathrm{exact}}|$', fontsize=12)
ax.set_title('Numerical Differentiation Error vs Step Size', fontsize=13)
ax.legend(fontsize=11)
ax.grid(True, alpha=0.3)
ax.annotate('Roundoff error\ndominates', xy=(1e-14, 1e-2), fontsize=10, color='#2C3E50')
ax.annotate('Truncation error\ndominates', xy=(1e-2, 1e-3), fontsize=10, color='#2C3E50')
plt.tight_layout()
plt.show()

print("\nNumerical differentiation has a 'sweet spot' around h = 1e-8.")
print("Automatic differentiation avoids this trade-off entirely: it is exact.")

# Visualize the computational graph for f(x, y) = (x + y) * sin(x)

fig, ax = plt.subplots(figsize=(12, 7))
ax.set_xlim(-1, 11)
ax.set_ylim(-1, 7)
ax.set_aspect('equal')
ax.axis('off')

# Node positions
nodes = {
    'x':    (1, 3),
    'y':    (1, 5),
    '+':    (4, 5),
    'sin':  (4, 1),
    '*':    (8, 3),
    'f':    (10, 3),
}

# Draw edges
edges = [
    ('x', '+'), ('y', '+'),
    ('x', 'sin'),
    ('+', '*'), ('sin', '*'),
    ('*', 'f'),
]

for (src, dst) in edges:
    x1, y1 = nodes[src]
    x2, y2 = nodes[dst]
    ax.annotate('', xy=(x2 - 0.35, y2), xytext=(x1 + 0.35, y1),
                arrowprops=dict(arrowstyle='->', color='#2C3E50', lw=2))

# Draw nodes
input_color = '#3498DB'
op_color = '#E74C3C'
output_color = '#27AE60'

for name, (x, y) in nodes.items():
    if name in ('x', 'y'):
        color = input_color
    elif name == 'f':
        color = output_color
    else:
        color = op_color
    circle = plt.Circle((x, y), 0.35, color=color, ec='black', lw=2, zorder=5)
    ax.add_patch(circle)
    ax.text(x, y, name, ha='center', va='center', fontsize=14,
            fontweight='bold', color='white', zorder=6)

# Labels with values for x=2, y=3
x_val, y_val = 2.0, 3.0
v1 = x_val + y_val       # 5.0
v2 = np.sin(x_val)       # 0.9093
f_val = v1 * v2           # 4.5465

ax.text(1, 1.8, f'$x = {x_val:.1f}$', ha='center', fontsize=11, color='#2C3E50')
ax.text(1, 6.0, f'$y = {y_val:.1f}$', ha='center', fontsize=11, color='#2C3E50')
ax.text(4, 5.8, f'$v_1 = x+y = {v1:.1f}$', ha='center', fontsize=10, color='#2C3E50')
ax.text(4, 0.2, f'$v_2 = \\sin(x) = {v2:.4f}$', ha='center', fontsize=10, color='#2C3E50')
ax.text(8, 4.0, f'$f = v_1 \\cdot v_2 = {f_val:.4f}$', ha='center', fontsize=10, color='#2C3E50')

ax.set_title('Computational Graph for $f(x, y) = (x + y) \\cdot \\sin(x)$', fontsize=14, pad=15)

# Legend
from matplotlib.patches import Patch
legend_elements = [
    Patch(facecolor=input_color, edgecolor='black', label='Input'),
    Patch(facecolor=op_color, edgecolor='black', label='Operation'),
    Patch(facecolor=output_color, edgecolor='black', label='Output'),
]
ax.legend(handles=legend_elements, loc='lower right', fontsize=11)

plt.tight_layout()
plt.show()

print(f"Forward pass: x={x_val}, y={y_val}")
print(f"  v1 = x + y = {v1}")
print(f"  v2 = sin(x) = {v2:.4f}")
print(f"  f  = v1 * v2 = {f_val:.4f}")

# Visualize forward vs reverse mode on f(x,y) = (x+y)*sin(x)

fig, axes = plt.subplots(1, 2, figsize=(14, 5))

# Forward mode: one pass per input
data = {
    'Mode': ['Forward', 'Forward', 'Reverse'],
    'Passes': ['Pass 1: $\\partial/\\partial x$', 'Pass 2: $\\partial/\\partial y$',
               'Single backward pass'],
    'Computes': ['$\\partial f/\\partial x$', '$\\partial f/\\partial y$',
                 '$\\nabla f = (\\partial f/\\partial x, \\partial f/\\partial y)$'],
}

# Comparison table as plot
comparison = [
    ['Feature', 'Forward Mode', 'Reverse Mode'],
    ['Direction', 'Input -> Output', 'Output -> Input'],
    ['One pass computes', '$\\partial f/\\partial x_i$ for one $i$', '$\\partial f/\\partial x_i$ for ALL $i$'],
    ['Cost for $\\nabla f$', '$O(n \\cdot T)$', '$O(T)$'],
    ['Good for', 'Few inputs, many outputs', 'Many inputs, few outputs'],
    ['Neural networks', 'Impractical ($n = 10^6$)', 'Standard (backprop)'],
    ['Memory', '$O(1)$ extra', '$O(T)$ (store forward pass)'],
]

axes[0].axis('off')
table = axes[0].table(cellText=comparison, cellLoc='center', loc='center')
table.auto_set_font_size(False)
table.set_fontsize(10)
table.scale(1.0, 1.8)

# Color header
for j in range(3):
    table[0, j].set_facecolor('#2C3E50')
    table[0, j].set_text_props(color='white', fontweight='bold')

# Alternate row colors
for i in range(1, len(comparison)):
    color = '#EBF5FB' if i % 2 == 1 else '#FDFEFE'
    for j in range(3):
        table[i, j].set_facecolor(color)

axes[0].set_title('Forward Mode vs Reverse Mode', fontsize=13, pad=20)

# Cost comparison plot
n_params = np.array([1, 10, 100, 1000, 10000, 100000, 1000000])
T = 1000  # base operations

forward_cost = n_params * T
reverse_cost = np.ones_like(n_params) * T * 2  # forward + backward

axes[1].loglog(n_params, forward_cost, 'o-', linewidth=2, markersize=6,
               color='#E74C3C', label='Forward mode: $O(n \\cdot T)$')
axes[1].loglog(n_params, reverse_cost, 's-', linewidth=2, markersize=6,
               color='#2E86C1', label='Reverse mode: $O(T)$')
axes[1].axvline(1e6, color='gray', linestyle=':', alpha=0.5)
axes[1].text(1.2e6, 1e5, 'Typical NN\n($10^6$ params)', fontsize=9, color='gray')
axes[1].set_xlabel('Number of parameters $n$', fontsize=12)
axes[1].set_ylabel('Computational cost (operations)', fontsize=12)
axes[1].set_title('Cost to Compute Full Gradient', fontsize=13)
axes[1].legend(fontsize=11)
axes[1].grid(True, alpha=0.3)

plt.tight_layout()
plt.show()

print("For neural networks (many params, one scalar loss), reverse mode")
print("is asymptotically faster by a factor of n (number of parameters).")

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

# Train on XOR using our autograd engine

random.seed(42)

# XOR dataset
X_xor = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
Y_xor = [-1.0, 1.0, 1.0, -1.0]  # Using -1/+1 targets for tanh output

# Build network: 2 -> 8 -> 1
model = MLP(2, [8, 1])
n_params = len(model.parameters())
print(f"Network: 2 -> 8 -> 1 (tanh activations)")
print(f"Total parameters: {n_params}")
print()

# Training loop
learning_rate = 0.05
n_epochs = 200
loss_history = []

for epoch in range(n_epochs):
    # Forward pass: compute predictions
    predictions = [model(x) for x in X_xor]
    
    # MSE loss: (1/n) * sum((pred - target)^2)
    losses = [(pred - yt)**2 for pred, yt in zip(predictions, Y_xor)]
    loss = sum(losses, Value(0.0)) * (1.0 / len(losses))
    loss_history.append(loss.data)
    
    # Zero gradients
    for p in model.parameters():
        p.grad = 0.0
    
    # Backward pass -- this is the magic!
    loss.backward()
    
    # Update parameters (gradient descent)
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    
    if epoch % 20 == 0 or epoch == n_epochs - 1:
        print(f"Epoch {epoch:4d}/{n_epochs}: Loss = {loss.data:.6f}")

# Final predictions
print("\nFinal predictions (target -1 or +1):")
for x, yt in zip(X_xor, Y_xor):
    pred = model(x)
    print(f"  Input: ({x[0]:.0f}, {x[1]:.0f}) -> "
          f"Predicted: {pred.data:+.4f}, Target: {yt:+.0f}")

# Plot training loss and decision boundary

fig, axes = plt.subplots(1, 2, figsize=(14, 5))

# Loss curve
axes[0].plot(loss_history, linewidth=2, color='#2E86C1')
axes[0].set_xlabel('Epoch', fontsize=12)
axes[0].set_ylabel('MSE Loss', fontsize=12)
axes[0].set_title('XOR Training with Micrograd Autograd', fontsize=13)
axes[0].set_yscale('log')
axes[0].grid(True, alpha=0.3)

# Decision boundary
xx, yy = np.meshgrid(np.linspace(-0.5, 1.5, 200), np.linspace(-0.5, 1.5, 200))
z_grid = np.zeros_like(xx)
for i in range(xx.shape[0]):
    for j in range(xx.shape[1]):
        out = model([xx[i, j], yy[i, j]])
        z_grid[i, j] = out.data

axes[1].contourf(xx, yy, z_grid, levels=50, cmap='RdBu_r', alpha=0.8)
axes[1].contour(xx, yy, z_grid, levels=[0.0], colors='black', linewidths=2)

# Plot XOR data points
for x, yt in zip(X_xor, Y_xor):
    color = '#E74C3C' if yt < 0 else '#2E86C1'
    marker = 'o' if yt < 0 else 's'
    axes[1].scatter(x[0], x[1], c=color, s=200, marker=marker,
                    edgecolors='black', linewidth=2, zorder=5)

axes[1].set_xlabel('$x_1$', fontsize=12)
axes[1].set_ylabel('$x_2$', fontsize=12)
axes[1].set_title('XOR Decision Boundary (Autograd Engine)', fontsize=13)
axes[1].set_aspect('equal')

plt.tight_layout()
plt.show()

print("The autograd engine we built from scratch successfully trains a neural network!")

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

# Side-by-side comparison: our micrograd vs PyTorch-style pseudocode

fig, axes = plt.subplots(1, 2, figsize=(14, 8))

# Micrograd code
micrograd_code = [
    "# OUR MICROGRAD ENGINE",
    "",
    "x = Value(2.0)",
    "y = Value(3.0)",
    "",
    "# Forward pass",
    "z = x * y + (x ** 2).relu()",
    "",
    "# Backward pass",
    "z.backward()",
    "",
    "print(x.grad)  # dz/dx",
    "print(y.grad)  # dz/dy",
    "",
    "# Training loop",
    "for epoch in range(100):",
    "    pred = model(x)",
    "    loss = (pred - y)**2",
    "    for p in params:",
    "        p.grad = 0.0",
    "    loss.backward()",
    "    for p in params:",
    "        p.data -= lr * p.grad",
]

pytorch_code = [
    "# PYTORCH (SAME ALGORITHM!)",
    "",
    "x = torch.tensor(2.0, requires_grad=True)",
    "y = torch.tensor(3.0, requires_grad=True)",
    "",
    "# Forward pass",
    "z = x * y + (x ** 2).relu()",
    "",
    "# Backward pass",
    "z.backward()",
    "",
    "print(x.grad)  # dz/dx",
    "print(y.grad)  # dz/dy",
    "",
    "# Training loop",
    "for epoch in range(100):",
    "    pred = model(x)",
    "    loss = (pred - y)**2",
    "    optimizer.zero_grad()",
    "    ",
    "    loss.backward()",
    "    optimizer.step()",
    "    ",
]

for ax_idx, (code, color) in enumerate([
    (micrograd_code, '#EBF5FB'),
    (pytorch_code, '#FEF9E7'),
]):
    axes[ax_idx].set_xlim(0, 1)
    axes[ax_idx].set_ylim(0, 1)
    axes[ax_idx].set_facecolor(color)
    axes[ax_idx].set_xticks([])
    axes[ax_idx].set_yticks([])
    
    y_pos = 0.95
    for line in code:
        weight = 'bold' if line.startswith('#') else 'normal'
        fcolor = '#2C3E50' if line.startswith('#') else '#1A1A2E'
        axes[ax_idx].text(0.05, y_pos, line, fontsize=9, fontfamily='monospace',
                          fontweight=weight, color=fcolor, va='top',
                          transform=axes[ax_idx].transAxes)
        y_pos -= 0.045

axes[0].set_title('Our Micrograd', fontsize=13, fontweight='bold', color='#2E86C1')
axes[1].set_title('PyTorch', fontsize=13, fontweight='bold', color='#E67E22')

plt.suptitle('The API is nearly identical -- because the algorithm is the same',
             fontsize=12, style='italic', y=0.02)
plt.tight_layout(rect=[0, 0.05, 1, 1])
plt.show()

print("The code structure is almost identical.")
print("PyTorch wraps the same reverse-mode AD in optimized C++/CUDA kernels.")

# Visualize the evolution of AD frameworks

fig, ax = plt.subplots(figsize=(14, 5))

events = [
    (1970, 'Linnainmaa\nReverse-mode AD', '#E74C3C', 0.7),
    (1982, 'Werbos\nAD for NNs', '#E74C3C', -0.7),
    (1986, 'Rumelhart et al.\nBackpropagation', '#E74C3C', 0.7),
    (2000, 'Griewank\nEvaluating\nDerivatives', '#F39C12', -0.7),
    (2010, 'Theano\nTensor AD', '#3498DB', 0.7),
    (2015, 'TensorFlow\nStatic graphs', '#3498DB', -0.7),
    (2017, 'PyTorch\nDynamic graphs', '#3498DB', 0.7),
    (2018, 'Baydin et al.\nAD Survey', '#F39C12', -0.7),
    (2020, 'JAX\nFunctional AD', '#3498DB', 0.7),
]

ax.axhline(0, color='#2C3E50', linewidth=2, zorder=1)

for year, label, color, y_offset in events:
    ax.plot(year, 0, 'o', markersize=10, color=color, zorder=3,
            markeredgecolor='black', markeredgewidth=1.5)
    ax.annotate(label, xy=(year, 0), xytext=(year, y_offset),
                fontsize=8, ha='center', va='center',
                bbox=dict(boxstyle='round,pad=0.3', facecolor=color, alpha=0.15),
                arrowprops=dict(arrowstyle='->', color=color, lw=1.5))

ax.set_xlim(1965, 2025)
ax.set_ylim(-1.3, 1.3)
ax.set_xlabel('Year', fontsize=12)
ax.set_title('Timeline of Automatic Differentiation', fontsize=13)
ax.set_yticks([])
ax.grid(True, alpha=0.2, axis='x')

from matplotlib.patches import Patch
legend_elements = [
    Patch(facecolor='#E74C3C', alpha=0.3, label='Theory'),
    Patch(facecolor='#3498DB', alpha=0.3, label='Frameworks'),
    Patch(facecolor='#F39C12', alpha=0.3, label='Textbooks/Surveys'),
]
ax.legend(handles=legend_elements, loc='upper left', fontsize=10)

plt.tight_layout()
plt.show()

print("Reverse-mode AD was invented in 1970 -- 47 years before PyTorch!")
