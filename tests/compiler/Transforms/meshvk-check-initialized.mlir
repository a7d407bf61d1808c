// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-check-initialized | FileCheck %s
// No undefined value reaches a result (issue #33): an op that reads an init
// which is a tensor.empty, and insert_slices that leave part of a
// tensor.empty unwritten before it is read, are refused at the reading op
// with the fix; initialised accumulators pass unchanged.

func.func @matmul_into_empty(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4x2xf32>
  // expected-error-re @+1 {{linalg.matmul accumulates into %0 = tensor.empty (at line {{[0-9]+}}), whose values are undefined (expected an initialised accumulator: fill it first, e.g. linalg.fill ins(%zero : f32) outs(%empty))}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Through a cast; the hint names the element type.
func.func @batch_matmul_through_cast(%a: tensor<2x4x8xi32>, %b: tensor<2x8x2xi32>) -> tensor<2x4x2xi32> {
  %e = tensor.empty() : tensor<2x4x2xi32>
  %c = tensor.cast %e : tensor<2x4x2xi32> to tensor<2x4x2xi32>
  // expected-error @+1 {{linalg.batch_matmul accumulates into %0 = tensor.empty}}
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xi32>, tensor<2x8x2xi32>) outs(%c : tensor<2x4x2xi32>) -> tensor<2x4x2xi32>
  return %0 : tensor<2x4x2xi32>
}

// -----

func.func @hint_type(%a: tensor<2x4x8xi32>, %b: tensor<2x8x2xi32>) -> tensor<2x4x2xi32> {
  %e = tensor.empty() : tensor<2x4x2xi32>
  // expected-error @+1 {{fill it first, e.g. linalg.fill ins(%zero : i32) outs(%empty))}}
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xi32>, tensor<2x8x2xi32>) outs(%e : tensor<2x4x2xi32>) -> tensor<2x4x2xi32>
  return %0 : tensor<2x4x2xi32>
}

// -----

// Through a reshape of the empty tensor.
func.func @matmul_through_expand(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %x = tensor.expand_shape %e [[0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
  // expected-error @+1 {{linalg.matmul accumulates into %0 = tensor.empty}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%x : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Through an annotation.
shard.grid @grid(shape = 2)
func.func @matmul_through_annotation(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %e = tensor.empty() : tensor<4x2xf32>
  %e_s = shard.shard %e to %s : tensor<4x2xf32>
  // expected-error @+1 {{linalg.matmul accumulates into %0 = tensor.empty}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%e_s : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @alloc_tensor(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %e = bufferization.alloc_tensor() : tensor<4x2xf32>
  // expected-error @+1 {{linalg.matmul accumulates into %0 = bufferization.alloc_tensor}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @conv_into_empty(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x4x4x8xf32> {
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  // expected-error @+1 {{linalg.conv_2d_nhwc_hwcf accumulates into %0 = tensor.empty}}
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x6x6x3xf32>, tensor<3x3x3x8xf32>) outs(%e : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

func.func @pooling_into_empty(%x: tensor<1x6x6x3xf32>) -> tensor<1x3x3x3xf32> {
  %window = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x3x3x3xf32>
  // expected-error @+1 {{linalg.pooling_nhwc_max accumulates into %1 = tensor.empty}}
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %window : tensor<1x6x6x3xf32>, tensor<2x2xf32>) outs(%e : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

func.func @reduce_into_empty(%x: tensor<8x4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{linalg.reduce accumulates into %0 = tensor.empty}}
  %0 = linalg.reduce ins(%x : tensor<8x4xf32>) outs(%e : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %0 : tensor<8xf32>
}

// -----

func.func @generic_reduction_into_empty(%x: tensor<8x4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{linalg.generic accumulates into %0 = tensor.empty}}
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x4xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Parallel iterators only, but the region reads the out argument.
func.func @generic_parallel_reads_out(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{linalg.generic reads its init %0 = tensor.empty (at line}}
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// The second of two inits is the one read.
func.func @generic_second_init(%x: tensor<8x4xf32>, %acc: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{linalg.generic accumulates into (outs operand #1) %0 = tensor.empty}}
  %0:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x4xf32>) outs(%acc, %e : tensor<8xf32>, tensor<8xf32>) {
    ^bb0(%in: f32, %a: f32, %b: f32):
      %s = arith.addf %in, %a : f32
      %m = arith.maxnumf %in, %b : f32
      linalg.yield %s, %m : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Half of a tensor.empty written, then the whole read.
func.func @insert_slice_half(%a: tensor<4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{tensor.insert_slice leaves element [4] of %0 = tensor.empty (at line}}
  %0 = tensor.insert_slice %a into %e[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A chain of two slices that leave a column of a 2-D tensor unwritten; the
// message ends with the fix.
func.func @insert_slice_chain_gap(%a: tensor<4x2xf32>, %b: tensor<4x1xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %0 = tensor.insert_slice %a into %e[0, 0] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<4x4xf32>
  // expected-error @+1 {{leaves element [0, 2] of %0 = tensor.empty (at line}}
  %1 = tensor.insert_slice %b into %0[0, 3] [4, 1] [1, 1] : tensor<4x1xf32> into tensor<4x4xf32>
  %x = tensor.empty() : tensor<4x4xf32>
  %r = linalg.exp ins(%1 : tensor<4x4xf32>) outs(%x : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @insert_slice_hint(%a: tensor<4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{unwritten, and its result is read (expected every element written: fill it first, e.g. linalg.fill ins(%zero : f32) outs(%empty), or insert slices that cover it)}}
  %0 = tensor.insert_slice %a into %e[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Strided: the even elements only.
func.func @insert_slice_strided(%a: tensor<4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{leaves element [1] of %0 = tensor.empty}}
  %0 = tensor.insert_slice %a into %e[0] [4] [2] : tensor<4xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A partial chain used as the init of a matmul is read by it.
func.func @insert_slice_into_accumulator(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<2x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{leaves element [2, 0] of %0 = tensor.empty}}
  %0 = tensor.insert_slice %c into %e[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x2xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%0 : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}

// -----

// An input the payload reads (not only the init).
func.func @input_from_empty(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error-re @+1 {{linalg.exp reads %0 = tensor.empty (at line {{[0-9]+}}), whose values are undefined (expected an initialised input: fill it first, e.g. linalg.fill ins(%zero : f32) outs(%empty))}}
  %0 = linalg.exp ins(%e : tensor<8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// An input through a reshape and a cast; the operand named.
func.func @input_through_reshape(%a: tensor<4x8xf32>, %acc: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = tensor.expand_shape %e [[0, 1]] output_shape [8, 2] : tensor<16xf32> into tensor<8x2xf32>
  %c = tensor.cast %r : tensor<8x2xf32> to tensor<?x2xf32>
  // expected-error @+1 {{linalg.matmul reads (ins operand #1) %0 = tensor.empty (at line}}
  %0 = linalg.matmul ins(%a, %c : tensor<4x8xf32>, tensor<?x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @extract_from_empty(%i: index) -> f32 {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error-re @+1 {{tensor.extract reads an element of %0 = tensor.empty (at line {{[0-9]+}}), whose values are undefined (expected an initialised tensor: fill it first, e.g. linalg.fill ins(%zero : f32) outs(%empty))}}
  %v = tensor.extract %e[%i] : tensor<8xf32>
  return %v : f32
}

// -----

// An extract_slice of an empty, read by an elementwise op and by extract.
func.func @extract_slice_of_empty(%x: tensor<4xf32>, %i: index) -> (tensor<4xf32>, f32) {
  %e = tensor.empty() : tensor<8xf32>
  %s = tensor.extract_slice %e[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  // expected-error @+1 {{linalg.add reads (ins operand #1) %0 = tensor.empty}}
  %0 = linalg.add ins(%x, %s : tensor<4xf32>, tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  %v = tensor.extract %s[%i] : tensor<4xf32>
  return %0, %v : tensor<4xf32>, f32
}

// -----

func.func @extract_of_slice_of_empty(%i: index) -> f32 {
  %e = tensor.empty() : tensor<8xf32>
  %s = tensor.extract_slice %e[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  // expected-error @+1 {{tensor.extract reads an element of %0 = tensor.empty}}
  %v = tensor.extract %s[%i] : tensor<4xf32>
  return %v : f32
}

// -----

// An scf.for accumulating into an iter_arg initialised from an empty: the
// first iteration reads it.
func.func @loop_iter_arg_from_empty(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<4x2xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %e) -> (tensor<4x2xf32>) {
    // expected-error @+1 {{linalg.matmul accumulates into %0 = tensor.empty (at line}}
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
    scf.yield %m : tensor<4x2xf32>
  }
  return %r : tensor<4x2xf32>
}

// -----

// The same through a cast of the iter_arg, read as an input.
func.func @loop_iter_arg_input(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<8xf32>
  %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%t = %e) -> (tensor<8xf32>) {
    %c = tensor.cast %t : tensor<8xf32> to tensor<8xf32>
    // expected-error @+1 {{linalg.add reads (ins operand #0) %0 = tensor.empty}}
    %s = linalg.add ins(%c, %x : tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

func.func @return_empty() -> tensor<4xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %s = tensor.extract_slice %e[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  // expected-error @+1 {{func.return returns (result #0) %0 = tensor.empty (at line}}
  return %s : tensor<4xf32>
}

// -----

// Accepted: a loop writing one tile of an empty iter_arg per iteration
// (insert_slice destinations are not reads), an elementwise op whose input
// is a filled tile of it, and an empty of no element returned.
// CHECK-LABEL: func.func @loop_tiles
func.func @loop_tiles(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<0xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  // CHECK: scf.for
  %r = scf.for %k = %c0 to %c8 step %c2 iter_args(%out = %e) -> (tensor<8xf32>) {
    %in = tensor.extract_slice %x[%k] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %t = tensor.extract_slice %out[%k] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %f = linalg.fill ins(%zero : f32) outs(%t : tensor<2xf32>) -> tensor<2xf32>
    %s = linalg.add ins(%in, %f : tensor<2xf32>, tensor<2xf32>) outs(%t : tensor<2xf32>) -> tensor<2xf32>
    %w = tensor.insert_slice %s into %out[%k] [2] [1] : tensor<2xf32> into tensor<8xf32>
    scf.yield %w : tensor<8xf32>
  }
  %none = tensor.empty() : tensor<0xf32>
  return %r, %none : tensor<8xf32>, tensor<0xf32>
}

// -----

// Accepted: a filled accumulator, through a cast too.
// CHECK-LABEL: func.func @filled
func.func @filled(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c = tensor.cast %f : tensor<4x2xf32> to tensor<4x2xf32>
  // CHECK: linalg.matmul
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Accepted: elementwise ops and generics that write their init without
// reading it; a dead matmul into a tensor.empty (erased by
// meshvk-normalize-input, its values reach nothing); an accumulator that is an argument (meshvk-normalize-input
// rewrites or refuses that one); an alloc_tensor copying a defined tensor.
// CHECK-LABEL: func.func @not_read
func.func @not_read(%x: tensor<8xf32>, %a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %acc: tensor<4x2xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<4x2xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  // CHECK: linalg.exp
  %0 = linalg.exp ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // CHECK: linalg.generic
  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
  } -> tensor<8xf32>
  // CHECK: linalg.matmul
  %2 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  %e2 = tensor.empty() : tensor<4x2xf32>
  // CHECK: linalg.matmul
  %dead = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %copy = bufferization.alloc_tensor() copy(%x) : tensor<8xf32>
  // CHECK: linalg.reduce
  %3 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%copy : tensor<8xf32>) dimensions = [0]
    (%in: f32, %s: f32) {
      %t = arith.addf %in, %s : f32
      linalg.yield %t : f32
    }
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<4x2xf32>, tensor<8xf32>
}

// -----

// Accepted: slices that cover the tensor.empty (a concat, overlapping
// slices, interleaved strided ones), a partial chain whose result only goes
// on into the chain or into an init that is overwritten, a dynamic slice
// (what it covers is known only at run time), slices into a filled tensor.
// CHECK-LABEL: func.func @covered
func.func @covered(%a: tensor<4xf32>, %b: tensor<6xf32>, %i: index, %big: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  // CHECK-COUNT-2: tensor.insert_slice
  %0 = tensor.insert_slice %a into %e[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %1 = tensor.insert_slice %a into %0[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %2 = tensor.insert_slice %b into %e[0] [6] [1] : tensor<6xf32> into tensor<8xf32>
  %3 = tensor.insert_slice %b into %2[2] [6] [1] : tensor<6xf32> into tensor<8xf32>
  %4 = tensor.insert_slice %a into %e[0] [4] [2] : tensor<4xf32> into tensor<8xf32>
  %5 = tensor.insert_slice %a into %4[1] [4] [2] : tensor<4xf32> into tensor<8xf32>
  %6 = tensor.insert_slice %a into %e[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %7 = linalg.exp ins(%big : tensor<8xf32>) outs(%6 : tensor<8xf32>) -> tensor<8xf32>
  %8 = tensor.insert_slice %a into %e[%i] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %9 = tensor.insert_slice %a into %f[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %1, %3, %5, %7, %8, %9 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Any other op reads its operands: a tosa op on a tensor.empty.
func.func @tosa_reads_empty(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error-re @+1 {{tosa.add reads (operand #1) %0 = tensor.empty (at line {{[0-9]+}}), whose values are undefined (expected an initialised tensor: fill it first, e.g. linalg.fill ins(%zero : f32) outs(%empty))}}
  %0 = tosa.add %a, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The source of an insert_slice is read (its elements are copied in).
func.func @insert_slice_of_empty(%d: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{tensor.insert_slice reads (operand #0) %0 = tensor.empty}}
  %0 = tensor.insert_slice %e into %d[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Through a reshape into a concatenation.
func.func @concat_of_empty(%a: tensor<2x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %x = tensor.expand_shape %e [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  // expected-error @+1 {{tensor.concat reads (operand #1) %0 = tensor.empty}}
  %0 = tensor.concat dim(0) %a, %x : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Shapes only, and a destination that is written: accepted.
// CHECK-LABEL: func.func @dim_and_insert_into_empty
func.func @dim_and_insert_into_empty(%v: f32) -> (index, tensor<1xf32>) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<1xf32>
  %n = tensor.dim %e, %c0 : tensor<1xf32>
  %0 = tensor.insert %v into %e[%c0] : tensor<1xf32>
  return %n, %0 : index, tensor<1xf32>
}

// -----

// shard.recv receives into its operand: an empty buffer is what it takes.
shard.grid @grid_recv(shape = 2)
// CHECK-LABEL: func.func @recv_into_empty
func.func @recv_into_empty() -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %0 = shard.recv %e on @grid_recv grid_axes = [0] source = [0] : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
