"""Tables, plots and Markdown/HTML reports built from runner output."""
