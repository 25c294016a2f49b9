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

# Function to find the exponential
def exp(a):
    import math
    out = Node(
        value= math.exp(a.value),
        parents= (a,)
    )
    # Gradient accumulation
    def backward(): # Backward: dy/dx = exp(x) = out.value
        a.grad += out.grad * out.value
    out.backward_fn = backward
    return out

# Function to find node traversal order using Post-DFS
def post_dfs(node, order, visited):
    if node in visited:
        return
    visited.add(node)
    for parent in node.parents:
        post_dfs(parent, order, visited)
    order.append(node)

#Backward Pass
def backward(out_node):
    visited, order = set(), []
    post_dfs(out_node, order, visited)
    out_node.grad = 1
    for node in reversed(order):
        if node.backward_fn:
            node.backward_fn()

x = Node(2.0)
y = Node(0.5)
p = mul(x, y)
q = exp(p)
z = add(q, x)
backward(z)
print(z.value, x.grad, y.grad)
