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

x = Node(5)
y = Node(4)
z = add(x,x)
backward(z)
print(z.grad, x.grad, y.grad) # Outputs are (1 2 0) because x is being used twice so it takes the blame twice.
z = mul(add(x,y),add(x,y))
backward(z)
print(z.grad, x.grad, y.grad) # Outputs are (1 20 18) the answer should be (1 18 18) but due to the gradient not being reset before calling the x node again it added the previous gradient to the new one.

# Function to reset the grads of all nodes to 0
def zero_grad(output):
    visited, order = set(), []
    post_dfs(output, order, visited)
    for node in order: # Sets the grad of each node to 0
        node.grad = 0

x = Node(5)
y = Node(4)
z = add(x,x)
backward(z)
print(z.grad, x.grad, y.grad)
zero_grad(z) # Sets the gradients of all the nodes to 0.
z = mul(add(x,y),add(x,y))
backward(z)
print(z.grad, x.grad, y.grad) # Since there's no previous grad stored in the node so it doesn't get accumulated

def __add__(self, other):
    return add(self, other)

Node.__add__ = __add__

x = Node(5)
y = Node(5)
z = x + y
print(z.value)

def __mul__(self, other):
    return mul(self, other)

Node.__mul__ = __mul__

x = Node(2)
y = Node(5)
z = x * y
print(z.value)

# Function for negation of a single value
def neg(a):
    out = Node(
        value = a.value * -1,
        parents= (a,)
    )
    # Gradient Accumulation
    def backward(): # dy/dx = -1
        a.grad += out.grad * -1
    out.backward_fn = backward
    return out

def __neg__(self):
    return neg(self)

Node.__neg__ = __neg__

x = Node(4)
y = Node(5)
z = x * -y # Composite of ops (First runs the __neg__(self) then does the __mul__(self, other) function)
print(z.value)
backward(z)
print(z.grad, x.grad, y.grad)

def __sub__(self, other):
    return add(self, -other) # Does the add() but with the negative value of other

Node.__sub__ = __sub__

x = Node(1)
y = Node(22)
z = x - y
print(z.value) # Composite of ops (First runs the __neg__(self) then does the __sub__(self,other) function)
backward(z)
print(z.grad, x.grad, y.grad)

# Function to find the power with scalar exponent
def pow(a, n):
    out = Node(
        value= a.value ** n,
        parents= (a,)
    )
    # Gradient Accumulation
    def backward(): # Backward: dy/dx = nx^(n-1)
        a.grad += out.grad * (n * (a.value**(n-1)))
    out.backward_fn= backward
    return out

def __pow__(self, other):
    return pow(self, other)

Node.__pow__ = __pow__

x = Node(5)
z = x ** 2
print(z.value)

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

x = Node(1)
z = exp(x)
backward(z)
print(z.value, x.grad)  # ≈ 2.71828, 2.71828

# Function to find the logarithmic value
def log(a):
    import math
    out = Node(
        value= math.log(a.value),
        parents= (a,)
    )
    # Gradient accumulation
    def backward(): # backward: dy/dx = 1/x
        a.grad += out.grad * (1/a.value)
    out.backward_fn= backward
    return out

x = Node(10)
z = log(x)
backward(z)
print(z.value, x.grad)

# Function to find sin
def sin(a):
    import math
    out = Node(
        value= math.sin(a.value),
        parents= (a,)
    )
    # Gradient accumulation
    def backward(): # backward: dy/dx = cos(x)
        a.grad += out.grad * math.cos(a.value)
    out.backward_fn = backward
    return out

x = Node(5)
z = sin(x)
backward(z)
print(z.value, x.grad)

# Function to change the scalar value to a Node object
def lifter(value):
    if isinstance(value, Node): # checks if the value is a node object or not.
        return value
    else:
        return Node(value)

def __add__(self, other):
    other = lifter(other)
    return add(self, other)

Node.__add__ = __add__

def __mul__(self, other):
    other = lifter(other)
    return mul(self, other)

Node.__mul__ = __mul__

def __sub__(self,other):
    other = lifter(other)
    return add(self, -other)

Node.__sub__ = __sub__

def __radd__(self, other):
    other = lifter(other)
    return add(other, self)

Node.__radd__ = __radd__

def __rmul__(self, other):
    other = lifter(other)
    return mul(other,self)

Node.__rmul__ = __rmul__

def __rsub__(self,other):
    other = lifter(other)
    return add(other, -self)

Node.__rsub__ = __rsub__

def f(x):
    return (x + 1) * (x + 1)

def ag_g(f, x0):
    x = Node(x0)
    z = f(x)
    zero_grad(z)
    backward(z)
    return x.grad

def num_g(f, x0, eps = 1e-4):
    x_pos = Node(x0 + eps)
    x_neg = Node(x0 - eps)

    z_pos = f(x_pos)
    z_neg = f(x_neg)

    return (z_pos.value - z_neg.value) / (2 * eps)

def gradcheck(f, x0, eps=1e-4, tol=1e-4):
    g_auto = ag_g(f, x0)
    g_num = num_g(f, x0, eps)

    diff = abs(g_auto - g_num)
    print(f"x = {x0}")
    print(f"autograd grad = {g_auto}")
    print(f"numerical grad = {g_num}")
    print(f"diff = {diff}")

    if diff < tol:
        print("grad check pass")
    else:
        print("grad check fail")

equations = [
    # addition
    ("x + 3",        lambda x: x + 3,        2.0),
    ("3 + x",        lambda x: 3 + x,        2.0),

    # subtraction
    ("x - 3",        lambda x: x - 3,        5.0),
    ("3 - x",        lambda x: 3 - x,        5.0),

    # multiplication
    ("x * 4",        lambda x: x * 4,        3.0),
    ("4 * x",        lambda x: 4 * x,        3.0),

    # power
    ("x ** 2",       lambda x: x ** 2,       2.0),

    # unary
    ("-x",           lambda x: -x,           3.0),

    # nonlinear
    ("exp(x)",       lambda x: exp(x),       1.0),
    ("log(x)",       lambda x: log(x),       2.0),
    ("sin(x)",       lambda x: sin(x),       1.5),
]

composites = [
    ("(x + 1)(x + 1)",   lambda x: (x + 1) * (x + 1),   2.0),
    ("(x - 2)(x + 2)",   lambda x: (x - 2) * (x + 2),   3.0),
    ("(x + 1)(1 + x)",   lambda x: (x + 1) * (1 + x),   2.0),

    ("exp(x) * x",       lambda x: exp(x) * x,          1.0),
    ("log(x) * x",       lambda x: log(x) * x,          2.0),

    ("-(x + 3)",         lambda x: -(x + 3),            4.0),
]

print("\n===== SINGLE OP TESTS =====\n")
for name, fn, x0 in equations:
    print(f"Testing: {name}")
    gradcheck(fn, x0)
    print("-" * 40)

print("\n===== COMPOSITE TESTS =====\n")
for name, fn, x0 in composites:
    print(f"Testing: {name}")
    gradcheck(fn, x0)
    print("-" * 40)
