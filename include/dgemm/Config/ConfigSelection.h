//===- ConfigSelection.h - Kernel config choice for FP8 GEMMs ---*- C++ -*-===//
//
// The pure function behind `dgemm-select-config`: from a problem (layout, M or
// an M hint, N, K, groups, output type, scale recipe) and a target (SMs, shared
// memory per block) choose the kernel config: block M/N, pipeline stages,
// 2-CTA multicast, math warpgroups, tile-order group size and SMs to launch.
// No MLIR dependency: the pass, the runtime (per call, with the actual M) and
// the unit tests all call this same function.
//
//===----------------------------------------------------------------------===//
#ifndef DGEMM_CONFIG_CONFIGSELECTION_H
#define DGEMM_CONFIG_CONFIGSELECTION_H

#include <cstdint>
#include <string>

namespace dgemm {

/// Which GEMM the kernel computes.
enum class GemmKind { Normal, GroupedContiguous, GroupedMasked, KGrouped };

/// Which operand a 2-CTA cluster multicasts (None: no cluster).
enum class Multicast { None, A, B };

/// Output element type.
enum class OutType { BF16, F32 };

/// Granularity of B's scales: 128x128 blocks, or 1x128 per row (wgrad).
enum class BScaleGranularity { Block128x128, Row1x128 };

struct ProblemDesc {
  GemmKind kind = GemmKind::Normal;
  /// Rows per group (normal: M; contiguous: the sum of rows; masked: the
  /// expected rows per group; k-grouped: M). Must be >= 1.
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  /// Number of groups (1 for the normal GEMM).
  int64_t groups = 1;
  OutType out = OutType::BF16;
  BScaleGranularity bScale = BScaleGranularity::Block128x128;
  /// Contiguous layout only: groups given by their end rows (offsets[G],
  /// copied to shared memory by the kernel) rather than m_indices.
  bool groupOffsets = false;
};

struct TargetDesc {
  int64_t numSMs = 132;
  /// Dynamic shared memory a block may use (opt-in maximum).
  int64_t smemPerBlock = 232448;
};

struct KernelConfig {
  int64_t blockM = 0;
  int64_t blockN = 0;
  int64_t stages = 0;
  /// CTAs per cluster: 1 or 2.
  int64_t clusterSize = 1;
  Multicast multicast = Multicast::None;
  /// Consumer (math) warpgroups: 1 or 2.
  int64_t mathWarpgroups = 1;
  /// Tile-order group size: tiles are walked in groups of this many N blocks.
  int64_t swizzleGroup = 1;
  /// CTAs launched (persistent grid), <= target SMs, a multiple of clusterSize.
  int64_t numSMs = 0;
  /// B is read once (each B tile by one M block: m <= blockM, per group for
  /// the masked layout): its TMA loads are marked evict_first in L2.
  bool streamB = false;
  /// Masked layout only (0: none): a second tile shape, block M altBlockM
  /// (< blockM, the same math warpgroups, one CTA per cluster) by altBlockN
  /// with altStages stages on altNumSMs CTAs, built into the same kernel
  /// (launched on max(numSMs, altNumSMs) CTAs; each shape uses its own
  /// count of them). On the device the
  /// kernel counts both shapes' tiles from masked_m and runs the one whose
  /// rounds of tiles cost less (tileRoundCost), so that groups of more rows
  /// than expected do not each add a nearly empty block of blockM rows
  /// (docs/config-selection.md, "Two tile shapes").
  int64_t altBlockM = 0;
  int64_t altBlockN = 0;
  int64_t altStages = 0;
  int64_t altNumSMs = 0;
  /// Normal GEMM of one M block only (0: off): A's TMA box has this many
  /// rows (a multiple of 8 below blockM) instead of blockM, so that each
  /// stage receives the rows of a small M and not blockM rows zero-filled
  /// past it; the kernel then serves M <= aBoxRows only (its launch
  /// contract's max_m). On the H200 1.3-2x faster at M = 2-32 with K >=
  /// 7168 (docs/config-selection.md, "A's box at small M").
  int64_t aBoxRows = 0;

  bool hasAlt() const { return altBlockM != 0; }
  /// The alternative tile shape as a config of its own (cluster 1, the
  /// first shape's streamB).
  KernelConfig alt() const;
  bool operator==(const KernelConfig &o) const;
};

/// Register budget of one consumer thread (setmaxnreg value) for a config
/// with `mathWarpgroups` consumers: 240 for one, 232 for two.
int64_t consumerRegisterBudget(int64_t mathWarpgroups);

/// Registers a consumer thread needs: the fresh wgmma tile and the promoted
/// f32 total, 2 x (rows per warpgroup / 64) x blockN/2, plus a reserve for
/// addresses, scales and loop state; with 1x128 B scales also the columns'
/// scales of a K block (blockN/4).
int64_t consumerRegistersNeeded(
    int64_t blockM, int64_t blockN, int64_t mathWarpgroups,
    BScaleGranularity bScale = BScaleGranularity::Block128x128);

/// Whether a tile of one m64 row wave (and one wgmma part) runs its K blocks
/// in pairs (the lowering's KernelLayout::kUnroll 2), as far as the
/// registers decide it: a consumer with `consumerRegs` registers holds two
/// fresh wgmma fragments beside the total (3 x blockN/2 f32 plus the
/// reserve), for every kind and B-scale recipe. (The k-grouped GEMM pairs
/// them too since its tile loop reads the CTA index where it is built,
/// docs/kernel.md: 0.98-1.05x its 128x192 kernels in an alternating A/B on
/// the H200; before that fix 0.96-1.01x.) The config selection and the
/// lowering both ask this.
bool takesKBlockPairs(int64_t blockN, int64_t consumerRegs);

/// True when every tile at a multiple of blockN spans at most two 128-wide
/// B-scale blocks: blockN <= 128 + gcd(blockN, 128).
bool spansAtMostTwoScaleBlocks(int64_t blockN);

/// The most 128-wide B-scale blocks a tile of blockN (<= 256) columns
/// spans: 2 or 3 (the kernel copies that many rows of B scales per tile).
int64_t bScaleBlocksSpanned(int64_t blockN);

/// Shared memory bytes of one pipeline stage (A, B, A scales, B scales for
/// the 1x128 recipe, and the stage's two mbarriers).
int64_t stageBytes(int64_t blockM, int64_t blockN, const ProblemDesc &p);

/// Shared memory bytes outside the stages (output staging tile, the tile's
/// B scales, the masked layout's copy of masked_m, slack).
int64_t fixedSmemBytes(int64_t blockM, int64_t blockN, const ProblemDesc &p);

/// Empty string when `c` is a config the kernel can run for `p` on `t`
/// (block sizes, register budget, scale blocks, shared memory, cluster);
/// otherwise a sentence saying which rule it breaks. Used to check configs
/// set by a user or a tuning record.
std::string checkConfig(const KernelConfig &c, const ProblemDesc &p,
                        const TargetDesc &t);

/// Empty string when the problem is one configs can be chosen for;
/// otherwise what is wrong with it (M < 1, N not a multiple of 8, ...).
std::string checkProblem(const ProblemDesc &p);

/// The cost model's time of one round of tiles (one per CTA) of block M x
/// block N for problem `p`, in its units (1/4096 clock per K element): a
/// tile's fixed cost, further row waves, tensor cores and operand loads.
/// A masked kernel with two tile shapes compares ceil(tiles / CTAs) times
/// this for both on the device.
int64_t tileRoundCost(int64_t blockM, int64_t blockN, const ProblemDesc &p);

/// Output tiles of the whole launch for a config's block sizes.
int64_t countTiles(const KernelConfig &c, const ProblemDesc &p);

/// Shared memory bytes a config uses: its stage ring plus the fixed part.
int64_t smemBytes(const KernelConfig &c, const ProblemDesc &p);

/// What the kernel the config is for can do (or should be asked to do); the
/// default is everything the config space holds. The lowering of this
/// version multicasts A or B (B: the normal GEMM and the contiguous layout)
/// and takes block M up to 256 (256 for the normal GEMM with a bf16 output
/// and 128x128 B scales).
/// The runtime, the dgemm-to-ptx pipeline and the dgemm-select-config pass's
/// option defaults (kernelCapabilities()) take multicast only where it was
/// measured faster: at least 8192 rows, K >= 2048 and more than one wave
/// (docs/config-selection.md, "Multicast: where the runtime takes it"); a
/// config that asks for it elsewhere is lowered as asked.
struct SelectOptions {
  bool allowMulticast = true;
  bool allowMulticastB = true;
  int64_t maxBlockM = 256;
  /// A second tile shape for the masked layout (KernelConfig::altBlockM).
  bool allowAltTile = true;
  /// The problem's M is the exact row count of every call (a static size,
  /// or the runtime's own M), not a hint: A's box may be cut to it
  /// (KernelConfig::aBoxRows).
  bool exactM = true;
  /// Multicast only for problems with at least this many rows (all rows of
  /// the contiguous layout, the expected rows of a masked group) and at
  /// least this K. Whatever these say, clusters need M >= 512.
  int64_t multicastMinRows = 512;
  int64_t multicastMinK = 0;
};

/// The capabilities of the current Hopper lowering, and where its multicast
/// kernels (with the drained exit, dgemm-lower-to-kernel's default) ran
/// faster than single CTAs on the H100: M >= 8192 with K >= 2048, 128x192
/// tiles (+0-13% normal, +0-2.5% contiguous). At M = 4096 they ran 1-2%
/// slower, at K = 512 7% slower. (selectConfig itself never clusters a
/// single wave or a weight-gradient form.)
inline SelectOptions kernelCapabilities() {
  SelectOptions o;
  o.multicastMinRows = 8192;
  o.multicastMinK = 2048;
  return o;
}

/// The chosen config. Deterministic. Precondition: checkProblem(p) is empty.
KernelConfig selectConfig(const ProblemDesc &p, const TargetDesc &t,
                          const SelectOptions &o = SelectOptions());

const char *toString(Multicast m);

} // namespace dgemm

#endif // DGEMM_CONFIG_CONFIGSELECTION_H
