# Core Structure
class Node:
    def __init__(self, value, parents=(), backward_fn=None):
        self.value = value
        self.grad = 0
        self.parents = parents
        self.backward_fn = backward_fn

# Function for addition
def add(a, b):
    out = Node(
        value = a.value + b.value,
        parents = (a,b)
    )
    # Gradient Accumulation
    def backward():
        a.grad += out.grad * 1
        b.grad += out.grad * 1
    out.backward_fn = backward
    return out

# Function for multiplication
def mul(a, b):
    out = Node(
        value = a.value * b.value,
        parents = (a,b)
    )
    # Gradient Accumulation
    def backward():
        a.grad += out.grad * b.value
        b.grad += out.grad * a.value
    out.backward_fn = backward
    return out

#Backward Pass
def backward(out_node):
    out_node.grad = 1
    propagate(out_node)

# Walk from the output down to the inputs
def propagate(node):
    if node.backward_fn:
        node.backward_fn()
    for parent in node.parents:
        propagate(parent)

x = Node(2)
y = Node(3)
r = add(x, y)
s = mul(r, x)
z = add(r, s)
backward(z)
print(z.grad, r.grad, s.grad, x.grad, y.grad)
