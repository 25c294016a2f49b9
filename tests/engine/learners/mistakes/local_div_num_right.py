import math

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
            self.grad += 1.0 * out.grad
            other.grad += out.grad * 1.0
        out._backward = _backward                      # setting backward for child
        return out

    def __sub__(self, other):
        other = other if isinstance(other, ValueNode) else ValueNode(other)
        out = ValueNode(self.value-other.value, (self, other), '-')
        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += out.grad * (-1.0)
        out._backward = _backward
        return out

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

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"          # limited non interger, non float powers
        out = ValueNode(self.value**other, (self,), f'**{other}')

        def _backward():
            self.grad += other * (self.value ** (other - 1)) * out.grad
        out._backward = _backward

        return out

    def backward(self):  # Universal backward, that does backward pass on a graph
        topo = []
        visited = set()

        def build_topo(v):
            # topological sort used to compute all child gradients before computing parent gradient
            if v not in visited:
                visited.add(v)
                for child in v.prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        self.grad = 1.0
        # initialize L/L = 1 where L is the final (Loss) node
        for node in reversed(topo):
            node._backward()

a = ValueNode(6.0, label='a')
b = ValueNode(3.0, label='b')
q = a / b; q.label = 'q'
L = q * q; L.label = 'L'
L.backward()

print(L, a.grad, b.grad)
