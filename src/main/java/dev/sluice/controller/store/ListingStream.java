package dev.sluice.controller.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Spliterator;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import java.util.stream.Collector;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * The Workload store's {@code values()}: a stream of every cached Workload that, collected into a list, gives a list
 * that materialises each element as it is read ({@code list}) instead of all of them at once. fabric8's informer
 * lists its store with {@code values().collect(Collectors.toList())}, once after every initial list (to drop what the
 * API server no longer has) and on {@code getStore().list()}; with 250,000 finished Workloads, each materialised
 * summary about 0.8 KB, that one list would need some 190 MB at the moment the controller starts. {@code toList()}'s
 * list may be of any type, so it is this one; a collector into a list of another kind (or any other use of the
 * stream) materialises every element as a plain stream does.
 */
final class ListingStream<T> implements Stream<T> {

    private final Stream<T> elements;
    private final Supplier<List<T>> list;

    ListingStream(Stream<T> elements, Supplier<List<T>> list) {
        this.elements = elements;
        this.list = list;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R, A> R collect(Collector<? super T, A, R> collector) {
        if (isToList(collector)) {
            elements.close();
            return (R) list.get();
        }
        return elements.collect(collector);
    }

    /**
     * Whether the collector is {@code Collectors.toList()} (a list of any type), told from
     * {@code Collectors.toCollection(ArrayList::new)} (whose caller expects an ArrayList) by where its supplier was
     * made: toList's is the JDK's own {@code ArrayList::new} in Collectors.
     */
    static boolean isToList(Collector<?, ?, ?> collector) {
        return collector.characteristics().equals(java.util.Set.of(Collector.Characteristics.IDENTITY_FINISH))
                && collector.supplier().getClass().getName().startsWith("java.util.stream.Collectors$$Lambda")
                && collector.supplier().get().getClass() == ArrayList.class;
    }

    @Override
    public <R> R collect(Supplier<R> supplier, BiConsumer<R, ? super T> accumulator, BiConsumer<R, R> combiner) {
        return elements.collect(supplier, accumulator, combiner);
    }

    @Override
    public Stream<T> filter(Predicate<? super T> predicate) {
        return elements.filter(predicate);
    }

    @Override
    public <R> Stream<R> map(Function<? super T, ? extends R> mapper) {
        return elements.map(mapper);
    }

    @Override
    public IntStream mapToInt(ToIntFunction<? super T> mapper) {
        return elements.mapToInt(mapper);
    }

    @Override
    public LongStream mapToLong(ToLongFunction<? super T> mapper) {
        return elements.mapToLong(mapper);
    }

    @Override
    public DoubleStream mapToDouble(ToDoubleFunction<? super T> mapper) {
        return elements.mapToDouble(mapper);
    }

    @Override
    public <R> Stream<R> flatMap(Function<? super T, ? extends Stream<? extends R>> mapper) {
        return elements.flatMap(mapper);
    }

    @Override
    public IntStream flatMapToInt(Function<? super T, ? extends IntStream> mapper) {
        return elements.flatMapToInt(mapper);
    }

    @Override
    public LongStream flatMapToLong(Function<? super T, ? extends LongStream> mapper) {
        return elements.flatMapToLong(mapper);
    }

    @Override
    public DoubleStream flatMapToDouble(Function<? super T, ? extends DoubleStream> mapper) {
        return elements.flatMapToDouble(mapper);
    }

    @Override
    public Stream<T> distinct() {
        return elements.distinct();
    }

    @Override
    public Stream<T> sorted() {
        return elements.sorted();
    }

    @Override
    public Stream<T> sorted(Comparator<? super T> comparator) {
        return elements.sorted(comparator);
    }

    @Override
    public Stream<T> peek(Consumer<? super T> action) {
        return elements.peek(action);
    }

    @Override
    public Stream<T> limit(long maxSize) {
        return elements.limit(maxSize);
    }

    @Override
    public Stream<T> skip(long n) {
        return elements.skip(n);
    }

    @Override
    public void forEach(Consumer<? super T> action) {
        elements.forEach(action);
    }

    @Override
    public void forEachOrdered(Consumer<? super T> action) {
        elements.forEachOrdered(action);
    }

    @Override
    public Object[] toArray() {
        return elements.toArray();
    }

    @Override
    public <A> A[] toArray(IntFunction<A[]> generator) {
        return elements.toArray(generator);
    }

    @Override
    public T reduce(T identity, BinaryOperator<T> accumulator) {
        return elements.reduce(identity, accumulator);
    }

    @Override
    public Optional<T> reduce(BinaryOperator<T> accumulator) {
        return elements.reduce(accumulator);
    }

    @Override
    public <U> U reduce(U identity, BiFunction<U, ? super T, U> accumulator, BinaryOperator<U> combiner) {
        return elements.reduce(identity, accumulator, combiner);
    }

    @Override
    public Optional<T> min(Comparator<? super T> comparator) {
        return elements.min(comparator);
    }

    @Override
    public Optional<T> max(Comparator<? super T> comparator) {
        return elements.max(comparator);
    }

    @Override
    public long count() {
        return elements.count();
    }

    @Override
    public boolean anyMatch(Predicate<? super T> predicate) {
        return elements.anyMatch(predicate);
    }

    @Override
    public boolean allMatch(Predicate<? super T> predicate) {
        return elements.allMatch(predicate);
    }

    @Override
    public boolean noneMatch(Predicate<? super T> predicate) {
        return elements.noneMatch(predicate);
    }

    @Override
    public Optional<T> findFirst() {
        return elements.findFirst();
    }

    @Override
    public Optional<T> findAny() {
        return elements.findAny();
    }

    @Override
    public Iterator<T> iterator() {
        return elements.iterator();
    }

    @Override
    public Spliterator<T> spliterator() {
        return elements.spliterator();
    }

    @Override
    public boolean isParallel() {
        return elements.isParallel();
    }

    @Override
    public Stream<T> sequential() {
        return elements.sequential();
    }

    @Override
    public Stream<T> parallel() {
        return elements.parallel();
    }

    @Override
    public Stream<T> unordered() {
        return elements.unordered();
    }

    @Override
    public Stream<T> onClose(Runnable closeHandler) {
        return elements.onClose(closeHandler);
    }

    @Override
    public void close() {
        elements.close();
    }
}
