# ruff: noqa: E501, W291, W293  (the cells as pasted: trailing spaces, long lines)
"""The micrograd lecture's and demo's programs, pasted verbatim, one copy each: the examples
(app.presets) and the language's acceptance tests use these.

From karpathy/micrograd: the README's example usage and tracing snippets and demo.ipynb's cells;
from karpathy/nn-zero-to-hero, lectures/micrograd/micrograd_lecture_second_half_roughly.ipynb:
the cells named here by their index in the notebook. A program made of several cells joins them
with a newline, as a student pasting one cell after another would.
"""

from __future__ import annotations

# micrograd's README, 'Example usage'
MICROGRAD_README = """\
from micrograd.engine import Value

a = Value(-4.0)
b = Value(2.0)
c = a + b
d = a * b + b**3
c += c + 1
c += 1 + c + (-a)
d += d * 2 + (b + a).relu()
d += 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g += 10.0 / f
print(f'{g.data:.4f}') # prints 24.7041, the outcome of this forward pass
g.backward()
print(f'{a.grad:.4f}') # prints 138.8338, i.e. the numerical value of dg/da
print(f'{b.grad:.4f}') # prints 645.5773, i.e. the numerical value of dg/db
"""

# micrograd's README, 'Tracing / visualization'
MICROGRAD_README_TRACING = """\
from micrograd import nn
n = nn.Neuron(2)
x = [Value(1.0), Value(-2.0)]
y = n(x)
dot = draw_dot(y)
"""

# lecture cell 0
LECTURE_IMPORTS = """\
import math
import random
import numpy as np
import matplotlib.pyplot as plt
%matplotlib inline"""

# lecture cell 7: the lecture's own Value class (gradstep skips it)
LECTURE_VALUE_CELL = """\
class Value:
  
  def __init__(self, data, _children=(), _op='', label=''):
    self.data = data
    self.grad = 0.0
    self._backward = lambda: None
    self._prev = set(_children)
    self._op = _op
    self.label = label

  def __repr__(self):
    return f"Value(data={self.data})"
  
  def __add__(self, other):
    other = other if isinstance(other, Value) else Value(other)
    out = Value(self.data + other.data, (self, other), '+')
    
    def _backward():
      self.grad += 1.0 * out.grad
      other.grad += 1.0 * out.grad
    out._backward = _backward
    
    return out

  def __mul__(self, other):
    other = other if isinstance(other, Value) else Value(other)
    out = Value(self.data * other.data, (self, other), '*')
    
    def _backward():
      self.grad += other.data * out.grad
      other.grad += self.data * out.grad
    out._backward = _backward
      
    return out
  
  def __pow__(self, other):
    assert isinstance(other, (int, float)), "only supporting int/float powers for now"
    out = Value(self.data**other, (self,), f'**{other}')

    def _backward():
        self.grad += other * (self.data ** (other - 1)) * out.grad
    out._backward = _backward

    return out
  
  def __rmul__(self, other): # other * self
    return self * other

  def __truediv__(self, other): # self / other
    return self * other**-1

  def __neg__(self): # -self
    return self * -1

  def __sub__(self, other): # self - other
    return self + (-other)

  def __radd__(self, other): # other + self
    return self + other

  def tanh(self):
    x = self.data
    t = (math.exp(2*x) - 1)/(math.exp(2*x) + 1)
    out = Value(t, (self, ), 'tanh')
    
    def _backward():
      self.grad += (1 - t**2) * out.grad
    out._backward = _backward
    
    return out
  
  def exp(self):
    x = self.data
    out = Value(math.exp(x), (self, ), 'exp')
    
    def _backward():
      self.grad += out.data * out.grad # NOTE: in the video I incorrectly used = instead of +=. Fixed here.
    out._backward = _backward
    
    return out
  
  
  def backward(self):
    
    topo = []
    visited = set()
    def build_topo(v):
      if v not in visited:
        visited.add(v)
        for child in v._prev:
          build_topo(child)
        topo.append(v)
    build_topo(self)
    
    self.grad = 1.0
    for node in reversed(topo):
      node._backward()

"""

# lecture cell 8: trace() and draw_dot() with graphviz (skipped)
LECTURE_GRAPHVIZ_CELL = """\
from graphviz import Digraph

def trace(root):
  # builds a set of all nodes and edges in a graph
  nodes, edges = set(), set()
  def build(v):
    if v not in nodes:
      nodes.add(v)
      for child in v._prev:
        edges.add((child, v))
        build(child)
  build(root)
  return nodes, edges

def draw_dot(root):
  dot = Digraph(format='svg', graph_attr={'rankdir': 'LR'}) # LR = left to right
  
  nodes, edges = trace(root)
  for n in nodes:
    uid = str(id(n))
    # for any value in the graph, create a rectangular ('record') node for it
    dot.node(name = uid, label = "{ %s | data %.4f | grad %.4f }" % (n.label, n.data, n.grad), shape='record')
    if n._op:
      # if this value is a result of some operation, create an op node for it
      dot.node(name = uid + n._op, label = n._op)
      # and connect this node to it
      dot.edge(uid + n._op, uid)

  for n1, n2 in edges:
    # connect n1 to the op node of n2
    dot.edge(str(id(n1)), str(id(n2)) + n2._op)

  return dot
"""

# lecture cells 9 and 11 start alike: the labelled neuron up to n
_NEURON_UP_TO_N = """\
# inputs x1,x2
x1 = Value(2.0, label='x1')
x2 = Value(0.0, label='x2')
# weights w1,w2
w1 = Value(-3.0, label='w1')
w2 = Value(1.0, label='w2')
# bias of the neuron
b = Value(6.8813735870195432, label='b')
# x1*w1 + x2*w2 + b
x1w1 = x1*w1; x1w1.label = 'x1*w1'
x2w2 = x2*w2; x2w2.label = 'x2*w2'
x1w1x2w2 = x1w1 + x2w2; x1w1x2w2.label = 'x1*w1 + x2*w2'
n = x1w1x2w2 + b; n.label = 'n'
"""

# lecture cell 9: the labelled neuron, o = n.tanh(), o.backward()
LECTURE_NEURON_CELL = (
    _NEURON_UP_TO_N
    + """\
o = n.tanh(); o.label = 'o'
o.backward()"""
)

# lecture cell 10
LECTURE_DRAW_DOT_CELL = """\
draw_dot(o)"""

# lecture cell 11: tanh written with exp, draw_dot(o) at the end
LECTURE_NEURON_EXP = (
    _NEURON_UP_TO_N
    + """\
# ----
e = (2*n).exp()
o = (e - 1) / (e + 1)
# ----
o.label = 'o'
o.backward()
draw_dot(o)"""
)

# lecture cell 14: Neuron, Layer and MLP with tanh neurons
LECTURE_MLP_CELL = """\

class Neuron:
  
  def __init__(self, nin):
    self.w = [Value(random.uniform(-1,1)) for _ in range(nin)]
    self.b = Value(random.uniform(-1,1))
  
  def __call__(self, x):
    # w * x + b
    act = sum((wi*xi for wi, xi in zip(self.w, x)), self.b)
    out = act.tanh()
    return out
  
  def parameters(self):
    return self.w + [self.b]

class Layer:
  
  def __init__(self, nin, nout):
    self.neurons = [Neuron(nin) for _ in range(nout)]
  
  def __call__(self, x):
    outs = [n(x) for n in self.neurons]
    return outs[0] if len(outs) == 1 else outs
  
  def parameters(self):
    return [p for neuron in self.neurons for p in neuron.parameters()]

class MLP:
  
  def __init__(self, nin, nouts):
    sz = [nin] + nouts
    self.layers = [Layer(sz[i], sz[i+1]) for i in range(len(nouts))]
  
  def __call__(self, x):
    for layer in self.layers:
      x = layer(x)
    return x
  
  def parameters(self):
    return [p for layer in self.layers for p in layer.parameters()]
"""

# lecture cell 16: four points and their targets
LECTURE_DATASET_CELL = """\
xs = [
  [2.0, 3.0, -1.0],
  [3.0, -1.0, 0.5],
  [0.5, 1.0, 1.0],
  [1.0, 1.0, -1.0],
]
ys = [1.0, -1.0, -1.0, 1.0] # desired targets"""

# demo.ipynb, code cell 1
DEMO_IMPORTS = """\
import random
import numpy as np
import matplotlib.pyplot as plt
%matplotlib inline"""

# demo.ipynb, code cell 2
DEMO_MICROGRAD_IMPORTS = """\
from micrograd.engine import Value
from micrograd.nn import Neuron, Layer, MLP"""

# demo.ipynb, code cell 3
DEMO_SEEDS = """\
np.random.seed(1337)
random.seed(1337)"""

# demo.ipynb, code cell 4
DEMO_DATASET_CELL = """\
# make up a dataset

from sklearn.datasets import make_moons, make_blobs
X, y = make_moons(n_samples=100, noise=0.1)

y = y*2 - 1 # make y be -1 or 1
# visualize in 2D
plt.figure(figsize=(5,5))
plt.scatter(X[:,0], X[:,1], c=y, s=20, cmap='jet')"""

# demo.ipynb, code cell 5
DEMO_MODEL_CELL = """\
# initialize a model 
model = MLP(2, [16, 16, 1]) # 2-layer neural network
print(model)
print("number of parameters", len(model.parameters()))"""

# demo.ipynb, code cell 6
DEMO_LOSS_CELL = """\
# loss function
def loss(batch_size=None):
    
    # inline DataLoader :)
    if batch_size is None:
        Xb, yb = X, y
    else:
        ri = np.random.permutation(X.shape[0])[:batch_size]
        Xb, yb = X[ri], y[ri]
    inputs = [list(map(Value, xrow)) for xrow in Xb]
    
    # forward the model to get scores
    scores = list(map(model, inputs))
    
    # svm "max-margin" loss
    losses = [(1 + -yi*scorei).relu() for yi, scorei in zip(yb, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    # L2 regularization
    alpha = 1e-4
    reg_loss = alpha * sum((p*p for p in model.parameters()))
    total_loss = data_loss + reg_loss
    
    # also get accuracy
    accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(yb, scores)]
    return total_loss, sum(accuracy) / len(accuracy)

total_loss, acc = loss()
print(total_loss, acc)"""

# demo.ipynb, code cell 7
DEMO_OPTIMIZATION_CELL = """\
# optimization
for k in range(100):
    
    # forward
    total_loss, acc = loss()
    
    # backward
    model.zero_grad()
    total_loss.backward()
    
    # update (sgd)
    learning_rate = 1.0 - 0.9*k/100
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    
    if k % 1 == 0:
        print(f"step {k} loss {total_loss.data}, accuracy {acc*100}%")
"""

# Program 3: the lecture's own classes, one forward and backward pass over the four points,
# then one gradient step (the update of lecture cell 17, without its loop over k)
LECTURE_TRAINING_STEP = """\
n = MLP(3, [4, 4, 1])
ypred = [n(x) for x in xs]
loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
loss.backward()
for p in n.parameters():
  p.data += -0.1 * p.grad
"""


def _after(dataset_and_step: str, model: str) -> str:
    first, rest = dataset_and_step.split("\n", 1)  # n = MLP(...) comes before the dataset
    return "\n".join([model, first, LECTURE_DATASET_CELL, rest])


# 1. the README
# 2. the lecture's neurons, tanh and then exp, draw_dot(o) lines left in
LECTURE_NEURON = "\n".join([LECTURE_NEURON_CELL, LECTURE_DRAW_DOT_CELL])
# the same pasted after the notebook's first cells: its own Value and graphviz helpers
LECTURE_NOTEBOOK_NEURON = "\n".join(
    [LECTURE_IMPORTS, LECTURE_VALUE_CELL, LECTURE_GRAPHVIZ_CELL, LECTURE_NEURON_CELL]
)
# 3. the lecture's MLP cell (tanh neurons), a training step
LECTURE_MLP = _after(LECTURE_TRAINING_STEP, "import random\n" + LECTURE_MLP_CELL)
# 4. the same with micrograd's nn (ReLU neurons, a linear output, bias 0)
MICROGRAD_NN_MLP = _after(LECTURE_TRAINING_STEP, "from micrograd.nn import MLP")
# 5. demo.ipynb up to its loss cell, on 4 moons instead of 100 (the only change)
DEMO = "\n".join(
    [
        DEMO_IMPORTS,
        DEMO_MICROGRAD_IMPORTS,
        DEMO_SEEDS,
        DEMO_DATASET_CELL.replace("n_samples=100", "n_samples=4"),
        DEMO_MODEL_CELL,
        DEMO_LOSS_CELL,
    ]
)
