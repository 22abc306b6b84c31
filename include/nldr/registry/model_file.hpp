// save_model / load_model: a fitted model in a versioned binary file (format in
// registry/model_format.hpp, docs/models.md). Writes are atomic (nothing is left behind on error);
// a truncated, corrupted, foreign or newer-version file is an nldr::io_error naming what is wrong.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/io/atomic_file.hpp>
#include <nldr/io/mapped_file.hpp>
#include <nldr/registry/any_model.hpp>
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/model_format.hpp>

#include <cstring>
#include <map>
#include <string>
#include <string_view>

namespace nldr {

/// The bytes of a model file for `model` (format version kModelFormatVersion).
template <Real T>
std::string model_bytes(const AnyModel<T>& model) {
  detail::ModelWriter out;
  out.bytes.append(kModelMagic);
  out.put(kModelFormatVersion);
  out.put(std::uint8_t(sizeof(T)));
  out.put_text(model.method());
  out.put(std::uint32_t(model.parameters().size()));
  for (const auto& [name, value] : model.parameters()) out.put_text(name), out.put_text(value);
  // The fields go straight after their count, which is patched in once known (no second copy of
  // an Isomap model's N x N geodesics).
  const std::size_t count_at = out.bytes.size();
  out.put(std::uint32_t(0));
  model.write_fields(out);
  std::memcpy(out.bytes.data() + count_at, &out.fields, sizeof out.fields);
  out.put(detail::model_checksum(kModelFormatVersion, out.bytes));
  return std::move(out.bytes);
}

/// A model from the bytes of a model file; `source` names them in errors (e.g. the path).
/// \throws nldr::io_error for anything but a valid file of scalar T written by this format version.
template <Real T>
AnyModel<T> model_from_bytes(std::string_view bytes, const std::string& source = "model") {
  detail::ByteReader in(bytes, source);
  if (bytes.size() < kModelMagic.size() || bytes.substr(0, kModelMagic.size()) != kModelMagic)
    in.fail("it does not start with NLDRMODL (a file written by save_model or nldr embed --save-model is needed)");
  if (bytes.size() < kModelMagic.size() + 4 + 1 + 8) in.fail("truncated header");
  (void)in.take(kModelMagic.size(), "the magic");
  const auto version = in.get<std::uint32_t>();
  if (version > kModelFormatVersion)
    in.fail(detail::concat("format version ", version, " is newer than this nldr reads (", kModelFormatVersion,
                           "): upgrade nldr"));
  if (version == 0) in.fail("format version 0 does not exist");
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  if (stored != detail::model_checksum(version, bytes.substr(0, bytes.size() - 8)))
    in.fail("its checksum does not match (the file is truncated or corrupted)");
  detail::ByteReader body(bytes.substr(0, bytes.size() - 8), source);
  (void)body.take(kModelMagic.size() + 4, "the header");
  const auto scalar = body.get<std::uint8_t>();
  if (scalar != sizeof(T))
    body.fail(detail::concat("it holds a ", int(scalar) * 8, "-bit model; load it as ", scalar == 4 ? "float" : "double"));
  const std::string method = body.get_text();
  const EmbedderInfo* entry = nullptr;
  for (const auto& candidate : embedders())
    if (candidate.name == method) entry = &candidate;
  if (entry == nullptr) body.fail(detail::concat("its method \"", method, "\" is unknown to this nldr"));
  ParameterValues parameters;
  const auto count = body.get<std::uint32_t>();
  for (std::uint32_t p = 0; p < count; ++p) {
    std::string name = body.get_text();
    parameters[name] = body.get_text();
  }
  std::map<std::string, detail::StoredField, std::less<>> fields;
  const auto field_count = body.get<std::uint32_t>();
  for (std::uint32_t f = 0; f < field_count; ++f) {
    std::string name = body.get_text();
    const auto kind = detail::FieldKind(body.get<std::uint8_t>());
    detail::ByteReader probe = body;
    const std::uint64_t size = detail::payload_size(probe, kind);
    fields[name] = {kind, body.take(size, "a field")};
  }
  if (body.left() != 0) body.fail("it has bytes after its last field");
  const bool projected = fields.count("input_projection.mean") > 0;
  detail::ModelReader reader(std::move(fields), source);
  AnyModel<T> model = entry->load<T>(reader, std::move(parameters));
  if (projected) {
    InputProjection<T> projection;
    projection.visit(reader);
    if (projection.components.rows() < 1 || projection.components.cols() != projection.mean.size() ||
        !projection.components.allFinite() || !projection.mean.allFinite())
      reader.fail("its input projection is not a finite P x D map with a D-vector mean");
    model.set_input_projection(std::move(projection));
  }
  return model;
}

/// Writes `model` to `path` atomically. \throws nldr::io_error (unwritable path, full disk).
template <Real T>
void save_model(const AnyModel<T>& model, const std::string& path) {
  io::AtomicFile file(path);
  file.write(model_bytes(model));
  file.commit();
}

/// Reads a model of scalar T written by save_model. The file is mapped into memory, not read
/// into a buffer: the checksum runs over the map and each matrix is copied once, into place.
/// \throws nldr::io_error naming the path and the fault.
template <Real T = double>
AnyModel<T> load_model(const std::string& path) {
  const io::MappedFile file(path);
  return model_from_bytes<T>(file.bytes(), path);
}

}  // namespace nldr
