!pip install -r requirements.txt
# you can run benchmarks via micrograd in the benchmark notebook

import math
# used for exponential and tanh operations
from graphviz import Digraph
# used for visualizing the computational graph

class ValueNode():
    def __init__(self, value, prev = (), op = '', label = ''):
        self.value = value
        self.prev = set(prev)           # saving parents
        self.op = op                    # visualization help
        self.label = label              # for graphviz visualization
        self.grad = 0.0                 # numeric gradient that back propagates
        self._backward = lambda : None # this backward defines the local derivative function

    def __repr__(self):                                # represent function to handle debugging, etc
        return f'Value: {self.value}'

    def __add__(self, other):                          # operator overloading to allow shorthands and numpy style operations
        other = other if isinstance(other, ValueNode) else ValueNode(other)
        out = ValueNode(self.value+other.value, (self, other), '+')
        def _backward():
            self.grad += 1.0 * out.grad                # see note below to understand how local derivative and upstream derivative is used to compute gradient
            other.grad += out.grad * 1.0
        out._backward = _backward                      # setting backward for child
        return out

    def __radd__(self, other):                         # reverse add
        return self + other                            # this handles the case of returning a node if self itself is not a node, allows us to do 2+a

    def __sub__(self, other):
        other = other if isinstance(other, ValueNode) else ValueNode(other)
        out = ValueNode(self.value-other.value, (self, other), '-')
        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += out.grad * (-1.0)
        out._backward = _backward
        return out

    def __rsub__(self, other):
        other = other if isinstance(other, ValueNode) else ValueNode(other)
        return other - self

    def __mul__(self, other):
        other = other if isinstance(other, ValueNode) else ValueNode(other)
        out = ValueNode(self.value*other.value, (self, other), '*')
        def _backward():
            self.grad += out.grad * other.value
            other.grad += self.value * out.grad
        out._backward = _backward
        return out

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        other = other if isinstance(other, ValueNode) else ValueNode(other)

        out = ValueNode(self.value / other.value, (self, other), '/')
        def _backward():
            self.grad += out.grad * (1 / other.value)
            other.grad += out.grad * (-self.value / other.value**2)
        out._backward = _backward
        return out

    def __rtruediv__(self, other):
        other = other if isinstance(other, ValueNode) else ValueNode(other)
        return other / self

    def tanh(self):
        out = ValueNode(math.tanh(self.value), (self,), 'tanh')
        def _backward():
            self.grad += out.grad * (1 - (math.tanh(self.value)**2))
        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"          # limited non interger, non float powers
        out = ValueNode(self.value**other, (self,), f'**{other}')

        def _backward():
            self.grad += other * (self.value ** (other - 1)) * out.grad
        out._backward = _backward

        return out

    def __neg__(self):          # utility allowing us to do -a instead of -1*a
        return self * -1

    def relu(self):      # Rectified Linear Unit activation function
        out = ValueNode(0 if self.value < 0 else self.value, (self,), 'ReLU')
        def _backward():
            self.grad += (out.value > 0) * out.grad
        out._backward = _backward
        return out

    def backward(self):  # Universal backward, that does backward pass on a graph
        topo = []
        visited = set()

        def build_topo(v):
            # topological sort used to compute all child gradients before computing parent gradient
            if v not in visited:
                # topological sort and its need (total derivative rule) is explained below
                visited.add(v)
                for child in v.prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        self.grad = 1.0
        # initialize L/L = 1 where L is the final (Loss) node
        for node in reversed(topo):
            node._backward()

# Adapted from Andrej Karpathy's GitHub Notes to visualise the computational graph via graphviz API
# source https://github.com/karpathy/nn-zero-to-hero/blob/master/lectures/micrograd/micrograd_lecture_first_half_roughly.ipynb

def trace(root):

    # builds a set of all nodes and edges in a graph
    nodes, edges = set(), set()
    def build(v):
        if v not in nodes:
            nodes.add(v)
            for child in v.prev:
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
        dot.node(name = uid, label = "{ %s | value %.4f | grad %.4f }" % (n.label, n.value, n.grad), shape='record')
        if n.op:
            # if this value is a result of some operation, create an op node for it
            dot.node(name = uid + n.op, label = n.op)
            # and connect this node to it
            dot.edge(uid + n.op, uid)

    for n1, n2 in edges:
        # connect n1 to the op node of n2
        dot.edge(str(id(n1)), str(id(n2)) + n2.op)

    return dot

class Module:                                # abstract class from which Neuron, Layer and MLP inherit
    def zero_grad(self):                            # for training, to prevent accumulation
        for param in self.parameters():
            param.grad = 0

    def parameters(self):                          # list out all the weights in a neuron, layer or MLP
        return []

class Neuron(Module):
    def __init__(self, n_inputs, activate = True):
        # initialize a n->1 neuron
        self.w = [ValueNode(np.random.uniform(-1,1)) for _ in range(n_inputs)]
        self.b = ValueNode(np.random.uniform(-1,1))
        self.activate = activate
        # this can have linear output as well, but if nonlinear by default

    def __call__(self, x):
        z = sum((w*x for w,x in zip(self.w, x)), self.b)
        # computing output
        return z.relu() if self.activate else z
        # reLU default activation function

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        # representation of the neuron
        return f"{'ReLU' if self.activate else 'Linear'}Neuron({len(self.w)})"

class Layer(Module):
    def __init__(self, n_inputs, n_outputs, **kwargs):
        # **kwargs to specify if linearity is needed
        self.neurons = [Neuron(n_inputs, **kwargs) for _ in range(n_outputs)]
        # n_outputs neurons each with n_inputs inputs

    def __call__(self, x):
        outputs = [neuron(x) for neuron in self.neurons]
        return outputs[0] if len(outputs) == 1 else outputs

    def parameters(self):
        params = []
        for neuron in self.neurons:
            params.extend(neuron.parameters())
        # appending in order the parameters of each neuron
        return params

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"

class MLP(Module):
    def __init__(self, n_inputs, n_outputs):
        # n_inputs here is a list of layer widths
        neuron_list = [n_inputs] + n_outputs
        self.layers = [Layer(neuron_list[i], neuron_list[i+1], activate=i!=len(n_outputs)-1) for i in range(len(n_outputs))] # creating a list of layers with linear output for last layer

    def __call__(self, x):
        for layer in self.layers: # evaluation the output of the MLP
            x = layer(x)
        return x

    def parameters(self):
        params = []
        for layer in self.layers:
            params.extend(layer.parameters())
        return params

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"

    def train(self, loss, epochs, schedule = True, batch_size = None): # Training with Minibatch GD capabilities, loss is loss function
        for epoch in range(epochs):
            total_loss, accuracy = loss(batch_size) # forward pass
            self.zero_grad() # zeroing out gradients
            total_loss.backward()
            learning_rate = (1 - 0.9*epoch/100) if schedule else 0.03 # learning schedule to decay learning rate
            for parameter in self.parameters():
                parameter.value -= learning_rate * parameter.grad # parameter update
            print(f'Epoch {epoch+1}/{epochs}, Loss: {total_loss.value:.5f}, Accuracy: {accuracy*100:.2f}%')

"""
a = ValueNode(1)
b = ValueNode(2)
c = a*b
d = a/c
e = a+b+c/d
draw_dot(e)
"""

# Commented to export to PDF

"""
e.backward()
draw_dot(e)
"""

# Commented to export to PDF

x = [1,1]
neuron = Neuron(2)           # neuron with 2 inputs and an output
layer = Layer(2, 2)          # layer with two such neurones defined above
perceptron = MLP(2,[4,4,1],) # perceptron with 2 inputs, 2 hidden layers of 4 neurons and one final output

print(neuron(x), layer(x), perceptron(x))

print([param.grad for param in layer.parameters()])    # viewing grads

mlp = MLP(2,[16,16,1])           # Creating a Neural Net with 2,16,16,1 neurons (4 layers)

import numpy as np
import matplotlib.pyplot as plt

# A synthetic moons dataset is created to match Karpathy's for benchmarking

from sklearn.datasets import make_moons      # using scikit-learn's API to make the dataset
X, y = make_moons(n_samples=100, noise=0.1)

y = y*2 - 1                                # make y be -1 or 1

# visualize in 2D using matplotlib

plt.figure(figsize=(5,5));
plt.scatter(X[:,0], X[:,1], c=y, s=20, cmap='jet');

# loss function [reference from Andrej Karpathy's library to benchmark https://github.com/karpathy/micrograd/blob/master/demo.ipynb]
def loss(batch_size=None):

    # inline DataLoader :)
    if batch_size is None:
        Xb, yb = X, y
    else:
        ri = np.random.permutation(X.shape[0])[:batch_size]
        Xb, yb = X[ri], y[ri]
    inputs = [list(map(ValueNode, xrow)) for xrow in Xb]

    # forward the model to get scores
    scores = list(map(mlp, inputs))

    # sum "max-margin" loss
    losses = [(1 + -yi*scorei).relu() for yi, scorei in zip(yb, scores)]
    total_loss = sum(losses) * (1.0 / len(losses))

    # We dropped regularisation used by Karpathy to evaluate whether decision boundary overfits further in this case

    # also get accuracy
    accuracy = [(yi > 0) == (scorei.value > 0) for yi, scorei in zip(yb, scores)]
    return total_loss, sum(accuracy) / len(accuracy)

total_loss, acc = loss()
print(total_loss, acc)

mlp.train(loss,50)
# Train using loss function defined above, full gradient descent, a learning schedule, and 50 epochs

# visualise decision boundary

h = 0.25
x_min, x_max = X[:, 0].min() - 1, X[:, 0].max() + 1
y_min, y_max = X[:, 1].min() - 1, X[:, 1].max() + 1
xx, yy = np.meshgrid(np.arange(x_min, x_max, h),
                     np.arange(y_min, y_max, h))
Xmesh = np.c_[xx.ravel(), yy.ravel()]
inputs = [list(map(ValueNode, xrow)) for xrow in Xmesh]
scores = list(map(mlp, inputs))
Z = np.array([s.value > 0 for s in scores])
Z = Z.reshape(xx.shape)

fig = plt.figure();
plt.contourf(xx, yy, Z, cmap=plt.cm.Spectral, alpha=0.8);
plt.scatter(X[:, 0], X[:, 1], c=y, s=40, cmap=plt.cm.Spectral);
plt.xlim(xx.min(), xx.max());
plt.ylim(yy.min(), yy.max());

plt.title('Decision Boundary for MLP', fontsize=20, fontweight='bold');
plt.xlabel('x1', fontsize=15);
plt.ylabel('x2', fontsize=15);
