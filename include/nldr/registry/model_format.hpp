// The binary model-file format (docs/models.md, "Model files"), written and read through each
// model's visit() (embed/model_fields.hpp):
//
//   "NLDRMODL"                      8 bytes, magic
//   u32 format version              3 (1 and 2 still read); a newer file is refused
//   u8  scalar size                 4 (float) or 8 (double)
//   str method                      registry name, e.g. "isomap"
//   u32 count, count x (str, str)   the parameters the model was fit with
//   u32 count, count x field        name (str), kind (u8), payload
//   u64 checksum                    XXH3-64 of every byte before it (versions 1 and 2: FNV-1a 64)
//
// Little-endian throughout; str = u32 length + bytes. Payloads: f64; i64; str; matrix = u64 rows,
// u64 cols, u8 element size (4|8), rows x cols elements row by row; index list = u64 n, n x i32;
// stage times = u32 n, n x (str, f64). The reader checks the checksum first, then every length
// against the bytes left, so a truncated, corrupted or foreign file is an io_error, never a crash.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/neighbors/point_index.hpp>

#include <Eigen/Core>
#define XXH_INLINE_ALL  // header-only use of Debian's libxxhash-dev: nothing to link
#include <xxhash.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/mman.h>

namespace nldr {

static_assert(std::is_same_v<index_t, int>, "EigenDiagnostics counts (int) are stored as index_t");
static_assert(std::endian::native == std::endian::little, "nldr model files assume a little-endian machine");

inline constexpr std::string_view kModelMagic = "NLDRMODL";
/// The format this nldr writes, and the newest it reads. Version 3 (2026-11-27) changed only the
/// checksum, from FNV-1a (a byte a cycle: about 1 s for an 800 MB Isomap model) to XXH3-64 (memory
/// speed); versions 1 (no input projection) and 2 (with the fields "input_projection.*") are read
/// with their FNV-1a checksum. Older readers refuse a version-3 file as newer than they read.
inline constexpr std::uint32_t kModelFormatVersion = 3;

namespace detail {

/// Largest row or column count a stored matrix may claim: nldr indexes points with index_t. A
/// 0 x huge matrix holds no bytes, so this bound, not the bytes left, is what refuses it.
inline constexpr std::uint64_t kMaxExtent = std::uint64_t(std::numeric_limits<index_t>::max());

enum class FieldKind : std::uint8_t { real = 1, integer = 2, text = 3, matrix = 4, indices = 5, stages = 6 };

/// FNV-1a, 64 bits: the checksum of format versions 1 and 2, at a byte a cycle.
inline std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

/// The checksum a file of format `version` ends with, over every byte before it. Both detect
/// corruption, not tampering.
inline std::uint64_t model_checksum(std::uint32_t version, std::string_view bytes) {
  return version >= 3 ? std::uint64_t(XXH3_64bits(bytes.data(), bytes.size())) : fnv1a(bytes);
}

/// memcpy in 16 MiB blocks on nldr's threads: the copy of a large matrix out of a mapped model
/// file (an 800 MB Isomap model's geodesics) and the page faults of its fresh destination then run
/// on every core instead of one. Where Linux offers transparent huge pages on request, the
/// destination asks for them: a fault per 2 MiB instead of per 4 KiB.
inline void copy_in_parallel(void* to, std::string_view from) {
  constexpr std::size_t block = std::size_t(1) << 24;
#if defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t(1) << 21;
  const std::uintptr_t begin = (std::uintptr_t(to) + huge - 1) & ~(huge - 1);
  const std::uintptr_t end = (std::uintptr_t(to) + from.size()) & ~(huge - 1);
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // advice only
#endif
  const auto blocks = std::int64_t((from.size() + block - 1) / block);
  parallel_for(0, blocks, [&](std::int64_t b) {
    const std::size_t at = std::size_t(b) * block;
    std::memcpy(static_cast<char*>(to) + at, from.data() + at, std::min(block, from.size() - at));
  }, 1);
}

/// EigenDiagnostics as the six fields "<name>.solver" ... "<name>.relative_gap" (no gap: NaN), the
/// one list that ModelWriter and ModelReader both walk.
template <class Visitor>
void visit_diagnostics_fields(Visitor& v, const char* name, EigenDiagnostics& value, FieldRole role) {
  const std::string prefix = std::string(name) + ".";
  v((prefix + "solver").c_str(), value.solver, role);
  v((prefix + "status").c_str(), value.status, role);
  v((prefix + "iterations").c_str(), value.iterations, role);
  v((prefix + "operations").c_str(), value.operations, role);
  v((prefix + "factorization_seconds").c_str(), value.factorization_seconds, role);
  double gap = value.relative_gap.value_or(std::numeric_limits<double>::quiet_NaN());
  v((prefix + "relative_gap").c_str(), gap, role);
  value.relative_gap = std::isnan(gap) ? std::nullopt : std::optional<double>(gap);
}

/// Appends fields to a byte string (a visitor of model fields).
class ModelWriter {
 public:
  std::string bytes;

  template <class U>
  void put(U value) {
    static_assert(std::is_trivially_copyable_v<U>);
    bytes.append(reinterpret_cast<const char*>(&value), sizeof(U));
  }
  void put_text(std::string_view text) {
    put(std::uint32_t(text.size()));
    bytes.append(text);
  }
  void begin(const char* name, FieldKind kind) {
    put_text(name);
    put(std::uint8_t(kind));
    ++fields;
  }

  void operator()(const char* name, double& value, FieldRole) { begin(name, FieldKind::real), put(value); }
  void operator()(const char* name, std::int64_t& value, FieldRole) { begin(name, FieldKind::integer), put(value); }
  void operator()(const char* name, index_t& value, FieldRole) { integer(name, value); }
  void operator()(const char* name, bool& value, FieldRole) { integer(name, value ? 1 : 0); }
  void operator()(const char* name, SolverStatus& value, FieldRole) { integer(name, std::int64_t(value)); }
  void operator()(const char* name, std::string& value, FieldRole) { begin(name, FieldKind::text), put_text(value); }
  /// Any other enum (e.g. MajorizationStatus) as its integer; models range-check it in check_state().
  template <class E>
    requires std::is_enum_v<E>
  void operator()(const char* name, E& value, FieldRole) {
    integer(name, std::int64_t(value));
  }
  void operator()(const char* name, std::vector<double>& value, FieldRole role) {
    Eigen::VectorXd column = Eigen::Map<const Eigen::VectorXd>(value.data(), Eigen::Index(value.size()));
    (*this)(name, column, role);
  }
  void operator()(const char* name, std::vector<index_t>& value, FieldRole) {
    begin(name, FieldKind::indices);
    put(std::uint64_t(value.size()));
    for (index_t i : value) put(i);
  }
  void operator()(const char* name, StageTimes& value, FieldRole) {
    begin(name, FieldKind::stages);
    put(std::uint32_t(value.stages.size()));
    for (auto& [stage, seconds] : value.stages) put_text(stage), put(seconds);
  }
  void operator()(const char* name, EigenDiagnostics& value, FieldRole role) {
    visit_diagnostics_fields(*this, name, value, role);
  }
  template <Real T>
  void operator()(const char* name, PointIndex<T>& value, FieldRole role) {
    Matrix<T> points = value.points();
    (*this)(name, points, role);
  }
  /// Any dense Eigen matrix or vector (row- or column-major), stored row by row.
  template <class Derived>
  void operator()(const char* name, Eigen::PlainObjectBase<Derived>& value, FieldRole) {
    using S = typename Derived::Scalar;
    static_assert(Real<S>);
    begin(name, FieldKind::matrix);
    put(std::uint64_t(value.rows()));
    put(std::uint64_t(value.cols()));
    put(std::uint8_t(sizeof(S)));
    if (Derived::IsRowMajor || value.cols() == 1) {  // memory order = stored order: one append
      bytes.append(reinterpret_cast<const char*>(value.data()), std::size_t(value.size()) * sizeof(S));
      return;
    }
    for (Eigen::Index i = 0; i < value.rows(); ++i)
      for (Eigen::Index j = 0; j < value.cols(); ++j) put(value(i, j));
  }

  std::uint32_t fields = 0;

 private:
  void integer(const char* name, std::int64_t value) { begin(name, FieldKind::integer), put(value); }
};

/// Reads bytes with every length checked against what is left.
class ByteReader {
 public:
  ByteReader(std::string_view bytes, std::string source) : bytes_(bytes), source_(std::move(source)) {}

  template <class U>
  U get() {
    need(sizeof(U), "a value");
    U value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(U));
    at_ += sizeof(U);
    return value;
  }
  std::string get_text() {
    const auto size = get<std::uint32_t>();
    need(size, "a name");
    std::string text(bytes_.substr(at_, size));
    at_ += size;
    return text;
  }
  std::string_view take(std::uint64_t size, const char* what) {
    need(size, what);
    const std::string_view part = bytes_.substr(at_, std::size_t(size));
    at_ += std::size_t(size);
    return part;
  }
  std::size_t left() const { return bytes_.size() - at_; }
  [[noreturn]] void fail(const std::string& why) const {
    throw io_error(concat(source_, ": not a valid nldr model file: ", why));
  }

 private:
  void need(std::uint64_t size, const char* what) const {
    if (size > left()) fail(concat("truncated: ", what, " needs ", size, " bytes but ", left(), " remain"));
  }
  std::string_view bytes_;
  std::size_t at_ = 0;
  std::string source_;
};

/// A field as stored: kind and raw payload, decoded on demand by ModelReader.
struct StoredField {
  FieldKind kind;
  std::string_view payload;
};

/// Fills a model's fields from the stored ones (a visitor of model fields). A field the model has
/// but the file lacks, or of another kind or element type, is an io_error naming it.
class ModelReader {
 public:
  ModelReader(std::map<std::string, StoredField, std::less<>> fields, std::string source)
      : fields_(std::move(fields)), source_(std::move(source)) {}

  void operator()(const char* name, double& value, FieldRole) { value = reader(name, FieldKind::real).get<double>(); }
  void operator()(const char* name, std::int64_t& value, FieldRole) { value = integer(name); }
  void operator()(const char* name, index_t& value, FieldRole) { value = index_t(integer(name)); }
  void operator()(const char* name, bool& value, FieldRole) { value = integer(name) != 0; }
  void operator()(const char* name, SolverStatus& value, FieldRole) {
    const std::int64_t status = integer(name);
    if (status < 0 || status > std::int64_t(SolverStatus::numerical_issue))
      fail(concat("field \"", name, "\" holds status ", status, ", which this version does not know"));
    value = SolverStatus(status);
  }
  void operator()(const char* name, std::string& value, FieldRole) { value = reader(name, FieldKind::text).get_text(); }
  template <class E>
    requires std::is_enum_v<E>
  void operator()(const char* name, E& value, FieldRole) {
    const std::int64_t stored = integer(name);
    if (stored < 0 || stored > 255) fail(concat("field \"", name, "\" holds ", stored, ", not a known value"));
    value = E(stored);
  }
  void operator()(const char* name, std::vector<double>& value, FieldRole role) {
    Eigen::VectorXd column;
    (*this)(name, column, role);
    value.assign(column.data(), column.data() + column.size());
  }
  void operator()(const char* name, std::vector<index_t>& value, FieldRole) {
    ByteReader in = reader(name, FieldKind::indices);
    const auto n = in.get<std::uint64_t>();
    if (n > in.left() / sizeof(index_t)) in.fail(concat("field \"", name, "\" claims ", n, " indices"));
    value.resize(std::size_t(n));
    for (auto& i : value) i = in.get<index_t>();
  }
  void operator()(const char* name, StageTimes& value, FieldRole) {
    ByteReader in = reader(name, FieldKind::stages);
    const auto n = in.get<std::uint32_t>();
    value.stages.clear();
    for (std::uint32_t s = 0; s < n; ++s) {
      std::string stage = in.get_text();
      value.stages.emplace_back(std::move(stage), in.get<double>());
    }
  }
  void operator()(const char* name, EigenDiagnostics& value, FieldRole role) {
    visit_diagnostics_fields(*this, name, value, role);
  }
  template <Real T>
  void operator()(const char* name, PointIndex<T>& value, FieldRole role) {
    Matrix<T> points;
    (*this)(name, points, role);
    if (!points.allFinite()) fail(concat("field \"", name, "\" holds non-finite training points"));
    value = PointIndex<T>(std::move(points));
  }
  template <class Derived>
  void operator()(const char* name, Eigen::PlainObjectBase<Derived>& value, FieldRole) {
    using S = typename Derived::Scalar;
    ByteReader in = reader(name, FieldKind::matrix);
    const auto rows = in.get<std::uint64_t>(), cols = in.get<std::uint64_t>();
    const auto element = in.get<std::uint8_t>();
    if (element != sizeof(S))
      fail(concat("field \"", name, "\" holds ", int(element) * 8, "-bit values where ", sizeof(S) * 8,
                  "-bit ones belong"));
    if (Derived::ColsAtCompileTime == 1 && cols != 1) fail(concat("field \"", name, "\" must be a column"));
    if (rows > kMaxExtent || cols > kMaxExtent || (cols != 0 && rows > in.left() / sizeof(S) / cols))
      fail(concat("field \"", name, "\" claims ", rows, " x ", cols, " values, more than the file holds"));
    const std::string_view data = in.take(rows * cols * sizeof(S), name);
    value.resize(Eigen::Index(rows), Eigen::Index(cols));
    if (value.size() == 0) return;
    if (Derived::IsRowMajor || value.cols() == 1) {  // stored order = memory order: one copy
      copy_in_parallel(value.data(), data);
      return;
    }
    const char* next = data.data();
    for (Eigen::Index i = 0; i < value.rows(); ++i)
      for (Eigen::Index j = 0; j < value.cols(); ++j, next += sizeof(S)) std::memcpy(&value(i, j), next, sizeof(S));
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw io_error(concat(source_, ": not a valid nldr model file: ", why));
  }

 private:
  ByteReader reader(const char* name, FieldKind kind) {
    const auto it = fields_.find(std::string_view(name));
    if (it == fields_.end())
      fail(concat("it lacks the field \"", name, "\" (written by an incompatible version of nldr?): fit the model again"));
    if (it->second.kind != kind) fail(concat("field \"", name, "\" has the wrong kind"));
    return ByteReader(it->second.payload, source_);
  }
  std::int64_t integer(const char* name) { return reader(name, FieldKind::integer).get<std::int64_t>(); }

  std::map<std::string, StoredField, std::less<>> fields_;
  std::string source_;
};

/// Length of a stored field's payload, read from its start, so fields can be skipped and indexed.
inline std::uint64_t payload_size(ByteReader& in, FieldKind kind) {
  switch (kind) {
    case FieldKind::real:
    case FieldKind::integer: return 8;
    case FieldKind::text: return 4 + std::uint64_t(in.get<std::uint32_t>());
    case FieldKind::matrix: {
      const auto rows = in.get<std::uint64_t>(), cols = in.get<std::uint64_t>();
      const auto element = in.get<std::uint8_t>();
      if (element != 4 && element != 8) in.fail(concat("a matrix of ", int(element), "-byte values"));
      if (rows > kMaxExtent || cols > kMaxExtent || (cols != 0 && rows > in.left() / element / cols))
        in.fail(concat("a matrix claims ", rows, " x ", cols,
                       " values: more than the file holds, or over 2^31 - 1 rows or columns"));
      return 17 + rows * cols * element;
    }
    case FieldKind::indices: {
      const auto n = in.get<std::uint64_t>();
      if (n > in.left() / sizeof(index_t)) in.fail(concat("a list of ", n, " indices is truncated"));
      return 8 + n * sizeof(index_t);
    }
    case FieldKind::stages: {
      const auto n = in.get<std::uint32_t>();
      std::uint64_t size = 4;
      for (std::uint32_t s = 0; s < n; ++s) {
        size += 4 + in.get_text().size() + 8;
        (void)in.get<double>();
      }
      return size;
    }
  }
  in.fail(concat("unknown field kind ", int(kind)));
}

}  // namespace detail
}  // namespace nldr
