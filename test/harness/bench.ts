console.log('npm run bench: not built yet');
