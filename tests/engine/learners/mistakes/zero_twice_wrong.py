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

# Function to reset the grads of all nodes to 0
def zero_grad(output):
    visited, order = set(), []
    post_dfs(output, order, visited)
    for node in order: # Sets the grad of each node to 0
        node.grad = 0

x = Node(3)
y = Node(2)
z = mul(x, y)
backward(z)
print(z.grad, x.grad, y.grad)
z = add(mul(x, x), y)
backward(z)
print(z.grad, x.grad, y.grad)
