"""Speed benchmarks that run c64tc's peers in the same run (see README.md here)."""
