from micrograd.engine import Value
 
a = Value(-4.0)
b = Value(2.0)
c = a + b # C maintains pointers to A and B
d = a * b + b**3
c += c + 1
c += 1 + c + (-a)
d += d * 2 + (b + a).relu()
d += 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g += 10.0 / f # Forward pass output
print(f'{g.data:.4f}') # prints 24.7041
g.backward() # Initialize backpropagation at G, recursively applying the chain rule
print(f'{a.grad:.4f}') # prints 138.8338, numerical dg/da
print(f'{b.grad:.4f}') # prints 645.5773, numerical dg/db

import numpy as np
import matplotlib.pyplot as plt
import math
%matplotlib inline
# Define a scalar function f(x)
def f(x):
    return 3*x**2 - 4*x + 5
    
f(3.0)

xs = np.arange(-5, 5, 0.25)
# Apply f(x) to each xs
ys = f(xs)
# Plot
plt.plot(xs, ys)

h = 0.00000001
x = 3.0
(f(x + h) - f(x)) / h # positive response

a = 2.0
b = -3.0
c = 10
d = a * b + c
print(d)

h = 0.0001
 
# inputs
a = 2.0
b = -3.0
c = 10
d1 = a * b + c
a += h
d2 = a * b + c
 
print('da', d1)
print('d2', d2)
print('slope', (d2 - d1) / h)

b += h

class Value:
    def __init__(self, data):
        self.data = data
 
    def __repr__(self):
        return f"Value({self.data})"
 
    def __add__(self, other):
        out = Value(self.data + other.data)
        return out
    
    def __mul__(self, other):
        out = Value(self.data * other.data)
        return out
 
a = Value(2.0)
b = Value(-3.0)
c = Value(10.0)
d = a * b + c # (a.__mul__(b)).__add__(c)

class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self._prev = set(_children)
        self._op = _op
 
    def __repr__(self):
        return f"Value({self.data})"
 
    def __add__(self, other):
        out = Value(self.data + other.data, (self, other), '+')
        return out
    
    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')
        return out

from graphviz import Digraph
 
def trace(root):
    # builds a set of all nodes and edges in the graph
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
        dot.node(name = uid, label = "{ %s | data %.4f}" % (n.label, n.data), shape = 'record')
        if n._op:
            dot.node(name = uid + n._op, label = n._op)
            dot.edge(uid + n._op, uid)
 
    for n1, n2 in edges:
        dot.edge(str(id(n1)), str(id(n2)) + n2._op)   
 
    return dot
 
draw_dot(d)

a = Value(2.0, label='a')
b = Value(-3.0, label='b')
c = Value(10.0, label='c')
e = a * b; e.label = 'e'
d = e + c; d.label = 'd'

f = Value(-2.0, label='f')
L = d * f; L.label = 'L'
draw_dot(L)

def lol():
    h = 0.0001
    # ... setup graph ...
    L1 = L.data
    # ... setup graph with L.data + h ...
    L2 = L.data + h
    print((L2 - L1) / h)
 
lol() # ~1.0
L.grad = 1.0
# L = d * f
# dL/dd = f
f.grad = 4.0 # d.data
d.grad = -2.0 # f.data

'''
d = c + e
dd / dc = 1.0
dd / de = 1.0
'''

a.data += 0.01 * a.grad
b.data += 0.01 * b.grad
# ... re-run forward pass ...
print(L.data)

o.grad = 1.0
topo = []
# ... build topological sort ...
for node in reversed(topo):
    node._backward()

class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1,1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1,1))
    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh()
 
class Layer:
    def __init__(self, nin, nout):
        self.neurons = [Neuron(nin) for _ in range(nout)]
    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs
 
class MLP:
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i+1]) for i in range(len(nouts))]
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

for p in n.parameters():
	p.data += -0.01 * p.grad
