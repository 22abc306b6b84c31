# t-SNE on Fashion-MNIST, Rtsne's side (benchmarks/tsne_fashion_mnist.py runs it beside nldr and
# scikit-learn, each in its own process).
#   Rscript tsne_fashion_mnist.R X50.csv Y.csv [threads 2]
# Rtsne 0.16 with the data already PCA-reduced (pca = FALSE), perplexity 30, theta 0.5,
# max_iter 1000, its default early exaggeration 12 for 250 iterations and eta 200, and
# num_threads as given. Prints one JSON line: wall time of Rtsne() and the final KL (itercosts).
args <- commandArgs(trailingOnly = TRUE)
threads <- if (length(args) > 2) as.integer(args[3]) else 2L
suppressPackageStartupMessages(library(Rtsne))
X <- as.matrix(read.csv(args[1], header = FALSE))
set.seed(0)
start <- Sys.time()
fit <- Rtsne(X, dims = 2, perplexity = 30, theta = 0.5, pca = FALSE, max_iter = 1000,
             num_threads = threads, check_duplicates = FALSE, verbose = FALSE)
seconds <- as.numeric(difftime(Sys.time(), start, units = "secs"))
write.table(fit$Y, args[2], sep = ",", row.names = FALSE, col.names = FALSE)
load <- paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:2], collapse = " ")
cat(sprintf('{"side": "Rtsne", "n": %d, "seconds": %.3f, "kl": %.6f, "threads": %d, "load": "%s"}\n',
            nrow(X), seconds, tail(fit$itercosts, 1), threads, load))
