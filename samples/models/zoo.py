"""The models of samples/models/ and tests/onnx/torch_models.py, built with random weights.

Each entry of MODELS builds a torch module and an example input from
torch.manual_seed(0) (torchvision models with weights=None: nothing is
downloaded). `export(name, directory)` writes NAME.onnx with torch.onnx.export
(opset 17), the input as NAME_x.npy (token ids as torch gives them, int64:
mesh-vk-run and the Python package narrow them to the program's i32 with a
range check) and torch's output as NAME_y.npy, and returns an
Exported record. The sizes are small so that lavapipe on two CPU cores runs
each model in seconds.
"""
import dataclasses
import os
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

BATCH = 4  # divisible by 4, so --shard=data really splits over 4 devices


class ViT(nn.Module):
    """A ViT-style encoder: patch conv, class token concat, position add,
    pre-norm transformer blocks (LayerNorm, multi-head attention, GELU MLP)."""

    def __init__(self, image=32, patch=8, dim=64, depth=2, heads=4, classes=10):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, patch, patch)
        tokens = (image // patch) ** 2
        self.cls = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.pos = nn.Parameter(torch.randn(1, tokens + 1, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 2, dropout=0.0, activation="gelu",
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        return self.head(self.norm(self.encoder(x)[:, 0]))


class DecoderBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.fc, self.out = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)
        self.heads = heads

    def forward(self, x, mask):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / (c // self.heads) ** 0.5)
        att = att.masked_fill(mask[:, :, :t, :t] == 0, float("-inf")).softmax(-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, t, c))
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class GPT(nn.Module):
    """A GPT-2-style decoder: token + position embeddings from int64 ids
    (Gather), causal mask (masked_fill -> Where), LayerNorm, GELU, LM head."""

    def __init__(self, vocab=128, context=16, dim=64, depth=2, heads=4):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, dim), nn.Embedding(context, dim)
        self.blocks = nn.ModuleList([DecoderBlock(dim, heads) for _ in range(depth)])
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.register_buffer("mask", torch.tril(torch.ones(context, context)).view(1, 1, context, context))

    def forward(self, ids):
        positions = torch.arange(0, ids.shape[1], dtype=torch.long).unsqueeze(0)
        x = self.wte(ids) + self.wpe(positions)
        for block in self.blocks:
            x = block(x, self.mask)
        return self.head(self.ln(x))


def _double_conv(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.ReLU())


class UNet(nn.Module):
    """A small U-Net: two MaxPool downsamples, ConvTranspose upsamples, skip concats."""

    def __init__(self, c=8, classes=2):
        super().__init__()
        self.down1, self.down2, self.mid = _double_conv(3, c), _double_conv(c, 2 * c), _double_conv(2 * c, 4 * c)
        self.up2, self.conv2 = nn.ConvTranspose2d(4 * c, 2 * c, 2, stride=2), _double_conv(4 * c, 2 * c)
        self.up1, self.conv1 = nn.ConvTranspose2d(2 * c, c, 2, stride=2), _double_conv(2 * c, c)
        self.out = nn.Conv2d(c, classes, 1)

    def forward(self, x):
        a = self.down1(x)
        b = self.down2(F.max_pool2d(a, 2))
        m = self.mid(F.max_pool2d(b, 2))
        y = self.conv2(torch.cat([self.up2(m), b], 1))
        return self.out(self.conv1(torch.cat([self.up1(y), a], 1)))


def _randomize_batch_norms(model):
    """Eval-mode BatchNorm with fresh statistics is the identity; give it
    random statistics and affine parameters so it computes something (and
    MobileNet-v2's output is not ~1e-10)."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            with torch.no_grad():
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.8, 1.6)
                m.bias.uniform_(-0.2, 0.2)
    return model


def _torchvision(name):
    import torchvision
    return lambda: _randomize_batch_norms(getattr(torchvision.models, name)(weights=None))


def _image(size=32):
    return lambda: torch.randn(BATCH, 3, size, size)


MODELS = {
    # name: (family, build the module, build the input)
    "resnet18": ("vision", _torchvision("resnet18"), _image()),
    "mobilenet_v2": ("vision", _torchvision("mobilenet_v2"), _image()),
    "squeezenet1_1": ("vision", _torchvision("squeezenet1_1"), _image()),
    "vit": ("encoder", ViT, _image()),
    "gpt": ("decoder", GPT, lambda: torch.randint(0, 128, (BATCH, 16))),
    "unet": ("unet", lambda: _randomize_batch_norms(UNet()), _image(16)),
}


@dataclasses.dataclass
class Exported:
    name: str
    onnx: str           # the model
    x: np.ndarray       # the input, as torch takes it
    x_npy: str          # the input as a .npy (int64 ids stay int64)
    y: np.ndarray       # torch's output
    y_npy: str
    parameters: int     # parameter bytes (f32) of the torch module
    torch_ms: float     # median wall time of a torch CPU forward

    @property
    def tolerance(self):
        """The models' acceptance bound: 1e-3 x max(1, max |torch output|)."""
        return 1e-3 * max(1.0, float(np.abs(self.y).max()))


def export(name, directory, torch_runs=5):
    _, build, make_input = MODELS[name]
    torch.manual_seed(0)
    model = build().eval()
    x = make_input()
    with torch.no_grad():
        y = model(x)
        times = []
        for _ in range(torch_runs):
            start = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - start) * 1e3)
    path = os.path.join(directory, name + ".onnx")
    torch.onnx.export(model, x, path, input_names=["x"], output_names=["y"], opset_version=17)
    x_np, y_np = x.numpy(), y.numpy()
    x_npy, y_npy = os.path.join(directory, name + "_x.npy"), os.path.join(directory, name + "_y.npy")
    np.save(x_npy, x_np)
    np.save(y_npy, y_np)
    parameters = sum(p.numel() * 4 for p in model.parameters())
    return Exported(name, path, x_np, x_npy, y_np, y_npy, parameters, float(np.median(times)))
