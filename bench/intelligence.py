"""The scikit-learn side of `pnpm bench:intelligence`.

`data <dir>`: writes iris, breast cancer, diabetes (shipped inside scikit-learn) and two generated sets of 100,000 rows
(numpy seed 7) as JSON row lists. `fit <dir> <runs>`: trains scikit-learn's same algorithms on the splits the engine used
(`<name>.split.<seed>.json`: the held-out row numbers of each seed), with the same preprocessing (standardized
features) and the same seed, and prints the held-out scores and the training time of each as JSON.
"""
import json
import sys
import time

import numpy as np
from sklearn.cluster import KMeans
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import accuracy_score, r2_score, silhouette_score
from sklearn.preprocessing import StandardScaler


def rows_of(x, y, names, target):
    return [dict(zip(names, map(float, r)), **{target: t}) for r, t in zip(x, y)]


def write_data(out):
    iris = load_iris()
    species = [str(iris.target_names[t]) for t in iris.target]
    sets = {"iris": rows_of(iris.data, species, [n.replace(" (cm)", "").replace(" ", "_") for n in iris.feature_names], "species")}
    cancer = load_breast_cancer()
    diagnosis = [str(cancer.target_names[t]) for t in cancer.target]
    sets["cancer"] = rows_of(cancer.data, diagnosis, [n.replace(" ", "_") for n in cancer.feature_names], "diagnosis")
    diabetes = load_diabetes()
    sets["diabetes"] = rows_of(diabetes.data, map(float, diabetes.target), diabetes.feature_names, "progression")
    rng = np.random.default_rng(7)
    x = rng.normal(size=(100_000, 8))
    coef = np.array([3.0, -2.0, 1.5, 0.0, 0.5, -1.0, 2.0, 0.25])
    y = x @ coef + 1.0 + rng.normal(scale=0.5, size=100_000)
    names = [f"x{i}" for i in range(8)]
    sets["regression100k"] = rows_of(x, map(float, y), names, "y")
    labels = ["yes" if v > 1.0 else "no" for v in x @ coef + 1.0 + rng.normal(scale=1.0, size=100_000)]
    sets["classification100k"] = rows_of(x, labels, names, "label")
    for name, rows in sets.items():
        with open(f"{out}/{name}.json", "w") as f:
            json.dump(rows, f)


def fit(out, name, task, algorithm, target, seeds):
    """scikit-learn's held-out score on each of the engine's splits (one per seed, `<name>.split.<seed>.json`), fitted
    with that seed, and the seconds the first `fit` took."""
    rows = json.load(open(f"{out}/{name}.json"))
    features = [k for k in rows[0] if k != target]
    x = np.array([[r[k] for k in features] for r in rows])
    y = np.array([r[target] for r in rows])
    scores, seconds = [], None
    for seed in seeds:
        test = set(json.load(open(f"{out}/{name}.split.{seed}.json")))
        train_idx = np.array([i for i in range(len(rows)) if i not in test])
        test_idx = np.array(sorted(test))
        scaler = StandardScaler().fit(x[train_idx])
        xt, xv = scaler.transform(x[train_idx]), scaler.transform(x[test_idx])
        score, took = fitted_score(task, algorithm, seed, xt, y[train_idx], xv, y[test_idx])
        scores.append(float(score))
        seconds = took if seconds is None else seconds
    return {"scores": scores, "seconds": seconds}


def fitted_score(task, algorithm, seed, xt, yt, xv, yv):
    """Fits scikit-learn's algorithm with `seed`: the held-out score and the seconds `fit` took."""
    model = {
        "linear": lambda: LinearRegression(),
        "logistic": lambda: LogisticRegression(max_iter=1000),
        "random_forest": lambda: (RandomForestRegressor if task == "regression" else RandomForestClassifier)(
            n_estimators=50, random_state=seed
        ),
        # The engine's defaults: 3 clusters, k-means++ from one start.
        "kmeans": lambda: KMeans(n_clusters=3, n_init=1, random_state=seed),
    }[algorithm]()
    start = time.perf_counter()
    model.fit(xt, None if task == "clustering" else yt)
    seconds = time.perf_counter() - start
    predicted = model.predict(xv)
    if task == "clustering":
        return silhouette_score(xv, predicted), seconds
    if task == "regression":
        return r2_score(yv, predicted), seconds
    return accuracy_score(yv, predicted), seconds


if __name__ == "__main__":
    if sys.argv[1] == "data":
        write_data(sys.argv[2])
    else:
        runs = json.loads(sys.argv[3])
        print(json.dumps([fit(sys.argv[2], r["name"], r["task"], r["algorithm"], r["target"], r["seeds"]) for r in runs]))
