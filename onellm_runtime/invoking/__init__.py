"""Running tools: the invoker (errors become results), its worker pool, background jobs, and the
conversion of return values into results."""
