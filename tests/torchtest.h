#pragma once

// Helpers of the tests that run libtorch directly: the thread count a test sets and gives
// back, and the tiny decoder configuration the gradient and worker tests build models
// from. Header-only.

#include "model/modelconfig.h"

#include <ATen/Parallel.h>

namespace rwbtest {

// Restores the intra-op thread count a test changed.
struct ThreadCount {
    int saved = at::get_num_threads();
    explicit ThreadCount(int n) { at::set_num_threads(n); }
    ~ThreadCount() { at::set_num_threads(saved); }
    ThreadCount(const ThreadCount &) = delete;
    ThreadCount &operator=(const ThreadCount &) = delete;
};

// A Qwen3-layout decoder small enough for finite differences in f64: 40 tokens, hidden 32,
// 2 layers, 4 query heads over 2 KV heads of 8, tied embeddings.
inline rwb::model::ModelConfig tinyConfig()
{
    rwb::model::ModelConfig c;
    c.family = rwb::model::Family::Qwen3;
    c.qkNorm = true;
    c.vocabSize = 40;
    c.hiddenSize = 32;
    c.intermediateSize = 48;
    c.numLayers = 2;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 8;
    c.ropeTheta = 10000.0;
    c.maxPositions = 64;
    c.tieWordEmbeddings = true;
    return c;
}

} // namespace rwbtest
