// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-record-abi | FileCheck %s
// SPMD functions (shard ops, no annotations; compiler/README.md "SPMD
// functions"): the ABI is recorded from the local signature.

// An SPMD function (shard ops, no annotations) on a 2x2 grid: local 2x3 rows
// stack along dimension 0 in linear process order (split over grid axes
// [0, 1]): global 8x3, process p starts at row 2p; the 0-d argument is
// replicated.
shard.grid @spmd22(shape = 2x2)
// CHECK-LABEL: func.func @spmd
// CHECK-SAME: meshvk.abi = #meshvk.abi<grid = @spmd22, grid_shape = [2, 2],
// CHECK-SAME: args = [#meshvk.value_abi<type = tensor<8x3xf32>, split_axes = {{\[\[}}0, 1]], shard_shape = [2, 3], shard_offsets = [array<i64: 0, 0>, array<i64: 2, 0>, array<i64: 4, 0>, array<i64: 6, 0>]>, #meshvk.value_abi<type = tensor<f32>, split_axes = {{\[\[}}]], shard_shape = [], shard_offsets = [array<i64>, array<i64>, array<i64>, array<i64>]>]
// CHECK-SAME: results = [#meshvk.value_abi<type = tensor<8x3xf32>
func.func @spmd(%x: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  %0 = shard.all_reduce %x on @spmd22 grid_axes = [1] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

shard.grid @ga(shape = 2)
shard.grid @gb(shape = 2)
func.func @spmd_two_grids(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = shard.all_reduce %x on @ga grid_axes = [0] : tensor<2x3xf32> -> tensor<2x3xf32>
  // expected-error @+1 {{SPMD function @spmd_two_grids uses grids @ga and @gb; one function runs on one grid}}
  %1 = shard.all_reduce %0 on @gb grid_axes = [0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

shard.grid @gd(shape = 2)
// expected-error @+1 {{argument #0 of SPMD function @spmd_dynamic has type 'tensor<?x3xf32>'; meshvk needs statically shaped tensors}}
func.func @spmd_dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = shard.all_reduce %x on @gd grid_axes = [0] : tensor<?x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
