// AtomicFile: the target appears complete or not at all; failures leave nothing behind.
// Checked by listing the directory (hidden temporary files included) after each case.
#include "catch.hpp"
#include "scratch_dir.hpp"

#include <nldr/io/atomic_file.hpp>
#include <nldr/io/csv_write.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <set>
#include <thread>
#include <stdexcept>
#include <string>

TEST_CASE("AtomicFile creates the file only at commit", "[io][atomic]") {
  nldr_test::ScratchDir dir;
  const auto path = dir / "out.txt";
  {
    nldr::io::AtomicFile file(path);
    file.write("hello ");
    file.write("world\n");
    CHECK_FALSE(std::filesystem::exists(path));  // only the hidden temporary exists so far
    CHECK(dir.listing().size() == 1);
    file.commit();
  }
  CHECK(nldr_test::read_file(path) == "hello world\n");
  CHECK(dir.listing() == std::set<std::string>{"out.txt"});
}

TEST_CASE("AtomicFile replaces an existing file atomically, or keeps it on failure", "[io][atomic]") {
  nldr_test::ScratchDir dir;
  const auto path = dir / "data.csv";
  nldr_test::write_file(path, "old content\n");

  // A writer that fails half-way (an exception from the caller's code) leaves the old file.
  CHECK_THROWS_AS(
      [&] {
        nldr::io::CsvWriter writer(path, {"x"});
        for (int i = 0; i < 100000; ++i) writer.write_row(i);  // > 64 KiB: part is on disk already
        throw std::runtime_error("simulated failure while writing");
      }(),
      std::runtime_error);
  CHECK(nldr_test::read_file(path) == "old content\n");
  CHECK(dir.listing() == std::set<std::string>{"data.csv"});

  nldr::io::write_file_atomically(path, "new content\n");
  CHECK(nldr_test::read_file(path) == "new content\n");
  CHECK(dir.listing() == std::set<std::string>{"data.csv"});
}

TEST_CASE("AtomicFile refuses unusable targets with the path and the fix", "[io][atomic]") {
  nldr_test::ScratchDir dir;
  const auto in_missing = dir / "no" / "such" / "dir" / "out.csv";
  CHECK_THROWS_WITH(nldr::io::AtomicFile(in_missing),
                    ContainsSubstring(in_missing.string() + ": cannot be written: directory '") &&
                        ContainsSubstring("does not exist: create it first"));
  CHECK_THROWS_WITH(nldr::io::write_csv(in_missing, nldr::Matrix<double>::Ones(2, 2)),
                    ContainsSubstring("does not exist"));
  CHECK_THROWS_WITH(nldr::io::AtomicFile(dir.path()), ContainsSubstring("is a directory"));
  nldr_test::write_file(dir / "plain", "x");
  CHECK_THROWS_WITH(nldr::io::AtomicFile(dir / "plain" / "out.csv"), ContainsSubstring("is not a directory"));
  CHECK_THROWS_AS(nldr::io::AtomicFile(""), nldr::invalid_argument);
  CHECK(dir.listing() == std::set<std::string>{"plain"});  // nothing else was left behind
}

TEST_CASE("AtomicFile follows a symbolic link and replaces its target", "[io][atomic]") {
  nldr_test::ScratchDir dir;
  nldr_test::write_file(dir / "real.txt", "old");
  std::filesystem::create_symlink(dir / "real.txt", dir / "link.txt");
  nldr::io::write_file_atomically(dir / "link.txt", "new");
  CHECK(std::filesystem::is_symlink(dir / "link.txt"));
  CHECK(nldr_test::read_file(dir / "real.txt") == "new");
  CHECK(dir.listing() == std::set<std::string>{"link.txt", "real.txt"});
}

TEST_CASE("AtomicFile misuse after commit is reported", "[io][atomic]") {
  nldr_test::ScratchDir dir;
  nldr::io::AtomicFile file(dir / "a.txt");
  file.commit();
  CHECK_THROWS_AS(file.write("late"), nldr::io_error);
  CHECK_THROWS_AS(file.commit(), nldr::io_error);
  CHECK(nldr_test::read_file(dir / "a.txt").empty());
}

TEST_CASE("AtomicFile writes pipes, devices and /dev/fd/N directly", "[io][atomic]") {
  // /dev/null: a character device, which a rename would replace; it is written in place.
  nldr::io::write_file_atomically("/dev/null", "discarded\n");

  // /dev/fd/N of a pipe: what `--out /dev/stdout | next-command` opens. Before, the path resolved
  // to "pipe:[...]", weakly_canonical failed, and the error named an empty path.
  int ends[2];
  REQUIRE(pipe(ends) == 0);
  const std::string fd_path = "/dev/fd/" + std::to_string(ends[1]);
  {
    nldr::io::AtomicFile file(fd_path);
    CHECK(file.direct());
    CHECK(file.path() == fd_path);
    file.write("through the pipe\n");
    file.commit();
  }
  close(ends[1]);
  char buffer[64] = {};
  const auto got = read(ends[0], buffer, sizeof buffer - 1);
  close(ends[0]);
  CHECK(std::string(buffer, got > 0 ? std::size_t(got) : 0) == "through the pipe\n");

  // A named pipe (FIFO), reached through a symbolic link; a reader thread drains it.
  nldr_test::ScratchDir dir;
  const auto fifo = dir / "fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::filesystem::create_symlink(fifo, dir / "link");
  {
    // A probe that writes nothing (the tool checks its outputs first) does not open the FIFO:
    // opening it without a reader would block, and closing it would end a reader's input.
    nldr::io::AtomicFile probe(dir / "link");
    CHECK(probe.direct());
  }
  std::string received;
  std::thread reader([&] { received = nldr_test::read_file(fifo); });
  nldr::io::write_file_atomically(dir / "link", "1,2\n3,4\n");
  reader.join();
  CHECK(received == "1,2\n3,4\n");
  CHECK(dir.listing() == std::set<std::string>{"fifo", "link"});  // no temporary file
}
